/**
 * The wallet shell's input, one line at a time. On a terminal each line is read by a fresh node:readline interface
 * (line editing, history, tab completion) that is closed as soon as the line is entered, so that while a command
 * runs nothing else reads the terminal — a confirmation prompt gets every key. From a pipe one interface reads it
 * all, without prompts or history.
 */
import { createInterface, type Completer, type Interface } from 'node:readline';

export interface ShellInput {
  /** The next line, or undefined at the end: Ctrl-D, Ctrl-C on an empty line, or the end of a pipe. */
  next(prompt: string): Promise<string | undefined>;
  /** The lines entered so far and those loaded, newest first; none from a pipe (a script is not the person's history). */
  readonly history: readonly string[] | undefined;
  close(): void;
}

export interface ShellInputOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  completer: Completer;
  /** Earlier lines, newest first. */
  history: string[];
  historySize: number;
}

export const shellInput = (options: ShellInputOptions): ShellInput =>
  options.input.isTTY ? terminalInput(options) : pipedInput(options);

function terminalInput(options: ShellInputOptions): ShellInput {
  let history = options.history;
  let reading: Interface | undefined;
  return {
    get history() {
      return history;
    },
    next: (prompt) =>
      new Promise((resolve) => {
        const rl = createInterface({
          input: options.input,
          output: options.output,
          completer: options.completer,
          history: [...history],
          historySize: options.historySize,
          removeHistoryDuplicates: true,
          terminal: true,
        });
        reading = rl;
        let line: string | undefined;
        rl.on('history', (lines: string[]) => (history = lines));
        rl.on('line', (entered) => {
          line = entered;
          rl.close();
        });
        rl.on('SIGINT', () => {
          if (rl.line === '') return rl.close();
          // Ctrl-C drops the line typed so far: shown with ^C, and a fresh prompt below it.
          rl.write(null, { ctrl: true, name: 'e' });
          options.output.write('^C\n');
          rl.write(null, { ctrl: true, name: 'u' });
        });
        rl.on('close', () => {
          reading = undefined;
          if (line === undefined) options.output.write('\n');
          resolve(line);
        });
        rl.setPrompt(prompt);
        rl.prompt();
      }),
    close: () => reading?.close(),
  };
}

function pipedInput(options: ShellInputOptions): ShellInput {
  const rl = createInterface({ input: options.input, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  return {
    history: undefined,
    next: async () => {
      const { value, done } = await lines.next();
      return done ? undefined : value;
    },
    close: () => rl.close(),
  };
}
