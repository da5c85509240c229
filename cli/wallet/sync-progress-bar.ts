/**
 * A sync's progress bar (cli-progress) on stderr — the history's blocks read, the header chain's blocks checked —
 * only when stderr is a terminal and the sync covers more than a few blocks; on a pipe nothing is drawn.
 */
import { SingleBar, Presets } from 'cli-progress';

const MIN_BLOCKS = 50;

export function syncProgressBar(
  what = 'syncing history',
  stream: NodeJS.WriteStream = process.stderr,
): ((done: number, total: number) => void) | undefined {
  if (!stream.isTTY) return undefined;
  let bar: SingleBar | undefined;
  return (done, total) => {
    if (total < MIN_BLOCKS) return;
    if (!bar) {
      bar = new SingleBar(
        { stream, format: `${what} [{bar}] {value}/{total} blocks`, hideCursor: true },
        Presets.legacy,
      );
      bar.start(total, done);
    }
    bar.setTotal(total);
    bar.update(done);
    if (done >= total) {
      bar.stop();
      bar = undefined;
    }
  };
}
