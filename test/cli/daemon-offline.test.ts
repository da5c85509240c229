import t from 'tap';
import { reachingDaemon } from '../../cli/daemon-offline.js';
import { DaemonUnavailableError } from '../../wallet/daemon-client.js';

t.test('an unreachable daemon becomes cli.daemon-offline, saying what to do; other failures pass', async (t) => {
  t.equal(await reachingDaemon(async () => 7), 7);
  await t.rejects(
    reachingDaemon(async () => {
      throw new DaemonUnavailableError('cannot reach the daemon at http://127.0.0.1:9/json_rpc: ECONNREFUSED');
    }),
    {
      code: 'cli.daemon-offline',
      message:
        'cannot reach the daemon at http://127.0.0.1:9/json_rpc: ECONNREFUSED; start the daemon, or name it with --daemon-address',
    },
  );
  const other = new Error('disk on fire');
  await t.rejects(
    reachingDaemon(async () => {
      throw other;
    }),
    other,
  );
});
