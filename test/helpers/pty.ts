/**
 * Runs the real `bin/umbra` in a pseudo-terminal (util-linux `script`), so that it sees a terminal on stdin, stdout
 * and stderr: a test types keys into it and watches what the terminal shows.
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { cliEnv, REPO_ROOT, UMBRA_BIN } from './cli.js';

/** Quotes a word for `sh -c`. */
const shellQuote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

/** What the terminal shows, with colours, cursor movements and saves left out (every line end as `\n`). */
export const plainText = (screen: string): string =>
  screen
    // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escape sequences are what is removed.
    .replace(/\x1b(\[[0-9;?]*[A-Za-z]|[78])/g, '')
    .replace(/\r*\n|\r/g, '\n');

export interface PtyCli {
  /** Everything the terminal showed so far, as plain text. */
  screen(): string;
  /** Types `keys`, then lets the program take them in. */
  type(keys: string, pauseMs?: number): Promise<void>;
  /** Resolves once the screen, from offset `from`, matches `pattern`; rejects on exit or timeout. */
  waitFor(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** The exit code (`script -e` passes the program's on). */
  exited: Promise<number | null>;
  kill(): void;
}

export function startPtyCli(args: string[], env: NodeJS.ProcessEnv = {}): PtyCli {
  // `exec`: the shell `script` starts must not stay between the terminal and the program, or Ctrl-C would reach the
  // shell too, and a shell that dies of it (dash does) makes the exit code 130 whatever the program did.
  const commandLine = `exec ${[UMBRA_BIN, ...args].map(shellQuote).join(' ')}`;
  const child = spawn('script', ['-q', '-e', '-c', commandLine, '/dev/null'], {
    cwd: REPO_ROOT,
    env: { ...cliEnv(env), TERM: 'xterm', COLUMNS: '200', LINES: '50' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  let exitCode: number | null | undefined;
  child.stdout.on('data', (d: Buffer) => (raw += d.toString()));
  child.stderr.on('data', (d: Buffer) => (raw += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const screen = (): string => plainText(raw);
  return {
    screen,
    exited,
    kill: () => child.kill('SIGKILL'),
    async type(keys, pauseMs = 250) {
      child.stdin.write(keys);
      await sleep(pauseMs);
    },
    async waitFor(pattern, from = 0, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(screen().slice(from));
        if (match) return match;
        if (exitCode !== undefined) throw new Error(`exited (${exitCode}) before ${pattern}; screen:\n${screen()}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; screen:\n${screen()}`);
        await sleep(50);
      }
    },
  };
}
