import { PassThrough } from 'node:stream';
import t from 'tap';
import { syncProgressBar } from '../../../cli/wallet/sync-progress-bar.js';

/** A stream that says it is a terminal, keeping what is drawn on it. */
function fakeTerminal(isTTY: boolean): { stream: NodeJS.WriteStream; drawn: () => string } {
  const stream = Object.assign(new PassThrough(), {
    isTTY,
    columns: 100,
    cursorTo: () => true,
    moveCursor: () => true,
    clearLine: () => true,
    clearScreenDown: () => true,
  }) as unknown as NodeJS.WriteStream;
  let drawn = '';
  stream.on('data', (chunk) => (drawn += chunk));
  return { stream, drawn: () => drawn };
}

t.test('nothing on a pipe', async (t) => {
  t.equal(syncProgressBar('syncing history', fakeTerminal(false).stream), undefined);
});

t.test('a bar on a terminal, for long syncs only', async (t) => {
  const { stream, drawn } = fakeTerminal(true);
  const progress = syncProgressBar('syncing history', stream)!;
  progress(5, 10);
  t.equal(drawn(), '', 'a short sync draws nothing');
  progress(0, 200);
  progress(200, 200);
  t.match(drawn(), /syncing history \[.*\] 200\/200 blocks/);
});
