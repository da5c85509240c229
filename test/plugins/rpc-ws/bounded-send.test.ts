/**
 * A client that stops reading is dropped once more than MAX_WAITING_BYTES wait for it, with close code 1008 and the
 * reason; what the daemon holds for it stays bounded meanwhile (measured on the daemon's side of each connection, and
 * as the process's memory in use after a collection), and a client that reads keeps hearing every push.
 */
import type { Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import { MAX_WAITING_BYTES, TOO_SLOW_CLOSE_CODE } from '../../../plugins/rpc-ws/bounded-send.js';
import { startTestApp } from '../../helpers/app.js';
import { WsClient } from '../../helpers/ws.js';

const PUSHES = 4000;
const PARAMS = { filler: 'x'.repeat(64 * 1024) };
const MESSAGE_BYTES = JSON.stringify({ jsonrpc: '2.0', method: 'Block', params: PARAMS }).length;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
/**
 * Memory the process holds (the JavaScript heap, where queued strings wait, and buffers), after collections; buffers
 * freed by one are released in the background, hence the pauses.
 */
const memoryInUse = async (): Promise<number> => {
  for (let i = 0; i < 3; i++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

t.test('a client that does not read is dropped; memory stays bounded; readers are unaffected', async (t) => {
  const { url, app, logLines } = await startTestApp(t);
  const daemon = app.container.cradle.rpcEndpoints.get('daemon');
  // The daemon's side of each WebSocket connection: what waits there is what it holds for that client.
  const serverSockets: Socket[] = [];
  app.container.cradle.httpServers
    .get('daemon')!
    .on('upgrade', (_request, socket: Socket) => serverSockets.push(socket));
  const slow = await WsClient.connect(url);
  // The reader counts what it gets, and keeps none of it.
  const reader = (await WsClient.connect(url)).ws;
  reader.removeAllListeners('message');
  let read = 0;
  const readAll = new Promise<void>((resolve) =>
    reader.on('message', () => {
      if (++read === PUSHES) resolve();
    }),
  );
  t.teardown(() => [slow.ws, reader].forEach((ws) => ws.close()));
  const slowClosed = new Promise<{ code: number; reason: string }>((resolve) =>
    slow.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();

  const memoryAtStart = await memoryInUse();
  let peakWaiting = 0;
  for (let i = 0; i < PUSHES; i++) {
    daemon.notify('Block', PARAMS);
    for (const socket of serverSockets) peakWaiting = Math.max(peakWaiting, socket.writableLength);
    // Let the reader read, as a real client on another machine would meanwhile.
    if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await readAll;
  t.pass(`the client that reads got all ${PUSHES} pushes`);
  const pushedMiB = (PUSHES * MESSAGE_BYTES) / 2 ** 20;
  t.ok(
    peakWaiting <= MAX_WAITING_BYTES + MESSAGE_BYTES + 16,
    `at most ${peakWaiting} bytes waited for a client while ${pushedMiB.toFixed(0)} MiB were pushed`,
  );
  const growth = (await memoryInUse()) - memoryAtStart;
  t.ok(growth < 8 * 2 ** 20, `memory in use grew by ${(growth / 2 ** 20).toFixed(1)} MiB after the pushes`);

  const drops = logLines.filter((line) => line.includes('dropping a WebSocket client'));
  t.equal(drops.length, 1, 'one client dropped: the slow one');
  t.match(drops[0], /too slow: \d+ bytes waiting/, 'the daemon says why it dropped the client');

  (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  const { code, reason } = await slowClosed;
  if (code === TOO_SLOW_CLOSE_CODE) t.match(reason, /^too slow: \d+ bytes waiting$/, 'the close frame says why');
  else t.equal(code, 1006, 'or the connection was cut after the grace period');
  t.ok(slow.pushed.length < PUSHES, `the slow client got ${slow.pushed.length} of ${PUSHES} before it was dropped`);
});
