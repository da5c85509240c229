/**
 * Registration against an in-process simulator daemon: the steps it reports (nobody mining included), a closed
 * registration cancelled, and an unreachable daemon said as such.
 */
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { randomScalar } from '../../core-native/ts/scalar.js';
import { UmbraError } from '../../core-native/ts/errors.js';
import { encodeAddress } from '../../protocol/address.js';
import { premineKey } from '../../protocol/premine.js';
import {
  AccountRegistration,
  describeRegistrationStep,
  type RegistrationStep,
  type RegistrationTiming,
} from '../../wallet/account-registration.js';
import { DaemonClient, DaemonClientErrorCode } from '../../wallet/daemon-client.js';
import { DaemonAccess } from '../../wallet/chain-access/daemon-access.js';
import { WalletErrorCode } from '../../wallet/wallet-error.js';
import { walletKeys } from '../../wallet/wallet-keys.js';
import { mineOneViaRpc, rpcCall, startTestApp } from '../helpers/app.js';
import { autoMine } from '../helpers/wallet-app.js';

const core = await loadCore();
const TIMING = { pollMs: 20, timeoutMs: 30_000 };
const newKeys = () => walletKeys(core, 'simulator', bigintToBytes32BE(randomScalar()));

/** The registration of a new account on `daemon`, read as the fast mode reads. */
const registrationOf = (daemon: DaemonClient, ...rest: [RegistrationTiming, (step: RegistrationStep) => void]) => {
  const keys = newKeys();
  return new AccountRegistration(core, keys, daemon, new DaemonAccess(daemon, keys.address), ...rest);
};

t.test('a new account: proof of work, sent, waiting for the next block, registered', async (t) => {
  const app = await startTestApp(t, { network: 'simulator' });
  const { height } = await rpcCall(app.url, 'NODE.GetHeight');
  autoMine(t, app.url, encodeAddress('simulator', premineKey(core, 'simulator')));
  const steps: RegistrationStep[] = [];
  const registration = registrationOf(new DaemonClient(app.url), TIMING, (step) => steps.push(step));
  await registration.ensure();
  t.match(steps, [
    { step: 'proof-of-work', bits: 0 },
    { step: 'sent', txid: /^[0-9a-f]{64}$/ },
    { step: 'waiting', height: height + 1 },
  ]);
  t.equal(steps.length, 3, 'mined in the first block');
  const lines = steps.map(describeRegistrationStep);
  t.equal(lines[0], 'registration: computing the proof of work (0 leading zero bits)');
  t.match(lines[1], /^registration: sent [0-9a-f]{64} \(proof of work \d+ ms\)$/);
  t.equal(lines[2], `registration: waiting for block ${height + 1}`);
  const pool = await rpcCall(app.url, 'NODE.GetTxPool');
  t.same(pool.txs, [], 'the registration left the pool');
  await registration.ensure();
  t.equal(steps.length, 3, 'a registered account does nothing more');
});

t.test('a closed registration stops before its proof of work is sent', async (t) => {
  const app = await startTestApp(t, { network: 'simulator' });
  const steps: RegistrationStep[] = [];
  const registration = registrationOf(new DaemonClient(app.url), TIMING, (step) => steps.push(step));
  registration.close();
  const error = await registration.ensure().catch((failure: unknown) => failure);
  t.ok(UmbraError.is(error, WalletErrorCode.RegistrationCancelled), (error as Error).message);
  t.same(steps, [{ step: 'proof-of-work', bits: 0 }], 'nothing was sent');
  t.same((await rpcCall(app.url, 'NODE.GetTxPool')).txs, [], 'the pool is empty');
});

t.test('an unreachable daemon fails the registration as unavailable, before any proof of work', async (t) => {
  const steps: RegistrationStep[] = [];
  const registration = registrationOf(new DaemonClient('127.0.0.1:1'), TIMING, (step) => steps.push(step));
  const error = await registration.ensure().catch((failure: unknown) => failure);
  t.ok(UmbraError.is(error, DaemonClientErrorCode.Unavailable), (error as Error).message);
  t.match((error as Error).message, /^cannot reach the daemon at http:\/\/127\.0\.0\.1:1\/json_rpc: /);
  t.same(steps, []);
});

t.test('nobody mining: the wait says so once, with how to start a miner, and goes on', async (t) => {
  const app = await startTestApp(t, { network: 'simulator' });
  const steps: RegistrationStep[] = [];
  const registration = registrationOf(new DaemonClient(app.url), { ...TIMING, stallMs: 1000 }, (step) =>
    steps.push(step),
  );
  const registered = registration.ensure();
  while (!steps.some(({ step }) => step === 'no-miner')) await new Promise((resolve) => setTimeout(resolve, 50));
  t.match(steps.at(-1), { step: 'no-miner', height: 0 });
  t.match(
    describeRegistrationStep(steps.at(-1)!),
    /^registration: the chain has no block after genesis — nobody seems to be mining it, .* umbra daemon … --mining-threads 1 --mining-address ADDRESS, or umbra miner /,
  );
  t.match(
    describeRegistrationStep({ step: 'no-miner', height: 7, idleMs: 300_000 }),
    /^registration: no new block for 5 min — nobody seems to be mining it/,
  );
  await mineOneViaRpc(app.url, encodeAddress('simulator', premineKey(core, 'simulator')));
  await registered;
  t.equal(steps.filter(({ step }) => step === 'no-miner').length, 1, 'said once');
});
