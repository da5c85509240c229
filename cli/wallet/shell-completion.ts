/**
 * Tab completion in the wallet shell: the first word completes to a command name (and so does the word after
 * `help`), a word that starts with `-` to one of that command's flags. A single match gets its trailing space.
 */
import type { Command } from 'commander';

export interface CompletableCommand {
  readonly name: string;
  /** Its long flags, `--help` included. */
  readonly flags: readonly string[];
}

/** A commander command as completion knows it. */
export const completable = (command: Command): CompletableCommand => ({
  name: command.name(),
  flags: [...command.options.flatMap((option) => (option.long ? [option.long] : [])), '--help'],
});

/** A readline completer: the candidates for the word before the cursor, and that word. */
export function shellCompleter(
  commands: readonly CompletableCommand[],
  builtins: readonly string[],
): (line: string) => [string[], string] {
  const names = [...commands.map((command) => command.name), ...builtins];
  return (line) => {
    const words = line.split(/[ \t]+/).filter((word, i) => word !== '' || i > 0);
    const current = words.length === 0 ? '' : words[words.length - 1]!;
    const before = words.slice(0, -1);
    let candidates: readonly string[] = [];
    if (before.length === 0 || (before.length === 1 && before[0] === 'help')) candidates = names;
    else if (current.startsWith('-')) candidates = commands.find((command) => command.name === before[0])?.flags ?? [];
    const matches = candidates.filter((candidate) => candidate.startsWith(current));
    return [matches.length === 1 ? [`${matches[0]} `] : matches, current];
  };
}
