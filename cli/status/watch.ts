/**
 * `umbra status --watch`: reads and shows the status every interval until SIGINT or SIGTERM, which end it at once
 * (a read still in flight is left to the caller to drop). On a terminal each view replaces the last (ANSI home and
 * clear); on a pipe the views follow one another. A daemon that cannot be reached is said so — on the screen, or
 * once on stderr when it goes and once when it is back — and tried again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DaemonReachability, isDaemonUnreachable } from '../../wallet/daemon-reachability.js';
import { type DaemonStatus, readDaemonStatus } from './daemon-status.js';
import type { StatusSource } from './local-daemon.js';

/** Cursor home, then clear the screen. */
const CLEAR_SCREEN = '\x1b[H\x1b[2J';

export interface WatchOptions {
  client: StatusSource;
  render(status: DaemonStatus): string;
  /** stdout. */
  write(text: string): void;
  /** stderr, for notes on a pipe. */
  note(line: string): void;
  intervalMs: number;
  /** Whether stdout is a terminal: redraw in place. */
  terminal: boolean;
  /** Written between two views on a pipe. */
  separator: string;
}

export async function watchStatus(options: WatchOptions): Promise<void> {
  const { client, render, write, note, intervalMs, terminal, separator } = options;
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const stopped = new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve()));
  const retrying = `retrying every ${intervalMs / 1000} s`;
  const reachability = new DaemonReachability((change) => {
    if (!terminal) note(change.reachable ? 'the daemon answers again' : `${change.reason}; ${retrying}`);
  });
  let shown = 0;
  const show = (text: string): void =>
    write(terminal ? `${CLEAR_SCREEN}${text}` : `${shown++ > 0 ? separator : ''}${text}`);
  let previous: DaemonStatus | undefined;
  try {
    while (!stop.signal.aborted) {
      try {
        const status = await Promise.race([readDaemonStatus(client, previous), stopped]);
        if (!status) break;
        reachability.observe();
        show(render(status));
        previous = status;
      } catch (error) {
        if (!isDaemonUnreachable(error)) throw error;
        reachability.observe(error);
        if (terminal) show(`${(error as Error).message}\n${retrying} (Ctrl-C to stop)\n`);
      }
      await sleep(intervalMs, undefined, { signal: stop.signal }).catch(() => undefined);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
