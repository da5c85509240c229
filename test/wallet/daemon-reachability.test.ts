/** The daemon's reachability: only transitions are reported, and only "cannot reach" errors count as away. */
import t from 'tap';
import { DaemonRpcError, DaemonUnavailableError } from '../../wallet/daemon-client.js';
import { DaemonReachability, type DaemonReachabilityChange } from '../../wallet/daemon-reachability.js';
import { daemonFailure } from '../../wallet/wallet-error.js';

t.test('away once, back once; a refusal means the daemon answered', async (t) => {
  const changes: DaemonReachabilityChange[] = [];
  const reachability = new DaemonReachability((change) => changes.push(change));
  reachability.observe();
  t.same(changes, [], 'a first success is no change');
  const away = new DaemonUnavailableError('cannot reach the daemon at http://127.0.0.1:1/json_rpc: ECONNREFUSED');
  reachability.observe(away);
  reachability.observe(daemonFailure(away));
  t.same(changes, [{ reachable: false, reason: away.message }], 'reported once, however often it fails');
  reachability.observe(new DaemonRpcError(-32098, 'Account Unregistered'));
  t.same(changes.at(-1), { reachable: true }, 'an answer, even an error, means it is back');
  reachability.observe();
  t.equal(changes.length, 2, 'and that is reported once');
});

t.test('a daemon away from the start is reported', async (t) => {
  const changes: DaemonReachabilityChange[] = [];
  new DaemonReachability((change) => changes.push(change)).observe(new DaemonUnavailableError('gone'));
  t.same(changes, [{ reachable: false, reason: 'gone' }]);
});
