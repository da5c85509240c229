/** A running app outlives a promise rejection nothing awaited: it is logged, with its stack, and the app goes on. */
import t from 'tap';
import { runUntilSignalled } from '../../host/lifecycle.js';

t.test('an unawaited rejection is logged and the app keeps running until its signal', async (t) => {
  const errors: string[] = [];
  let stopped = false;
  const logger = { info: () => undefined, warn: () => undefined, error: (line: string) => void errors.push(line) };
  const app = { start: async () => undefined, stop: async () => void (stopped = true), logger };
  const running = runUntilSignalled(app as unknown as Parameters<typeof runUntilSignalled>[0]);
  await new Promise((resolve) => setImmediate(resolve));
  void Promise.reject(new Error('stream closed by the peer'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(errors.length, 1);
  t.match(errors[0], /nothing awaited \(the node goes on\): Error: stream closed by the peer\n\s+at /);
  t.notOk(stopped, 'still running');
  process.emit('SIGTERM', 'SIGTERM');
  await running;
  t.ok(stopped, 'stopped by its signal');
  t.equal(process.listenerCount('unhandledRejection'), 0, 'and the handler removed');
});
