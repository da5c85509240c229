/**
 * The history sync's progress on the terminal: one line on stderr, rewritten in place (`\r`), only when stderr is a
 * TTY and the sync reads more than a few blocks; finished with a newline.
 */
const MIN_BLOCKS = 50;

export function terminalSyncProgress(
  stream: NodeJS.WriteStream = process.stderr,
): ((done: number, total: number) => void) | undefined {
  if (!stream.isTTY) return undefined;
  return (done, total) => {
    if (total < MIN_BLOCKS) return;
    const width = 30;
    const filled = Math.round((width * done) / total);
    stream.write(
      `\rsyncing history [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} blocks${done === total ? '\n' : ''}`,
    );
  };
}
