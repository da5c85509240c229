/**
 * A wallet's transactions that are not in a block, through the real CLI against a simulator that mines only when told
 * (--noautomine): a second send while the first waits in the pool is refused before anything is built, shown or asked,
 * naming the first; a send that SIMULATOR.Revert took out of the chain is `dropped` in the history, the balance is as
 * if it had never been sent, and the history offers the command that sends it again, which works.
 */
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { simulatorWalletSecret } from '../../../cli/simulator-command.js';
import { blockReward } from '../../../protocol/chain-params.js';
import { premineSecret } from '../../../protocol/premine.js';
import { runCli, walletFlags } from '../../helpers/cli.js';
import { startWalletSimulator } from '../../helpers/wallet-simulator.js';

const core = await loadCore();
const { env, passwordFile, daemonUrl, restore } = await startWalletSimulator(
  t,
  'umbra-wallet-pending-',
  1,
  '--noautomine',
);
const [premine, receiver] = await Promise.all([
  restore('premine', premineSecret(core, 'simulator')),
  restore('wallet0', simulatorWalletSecret(core, 0)),
]);
const wallet = (file: string, ...args: string[]) =>
  runCli(['wallet', ...args, ...walletFlags(file, passwordFile, daemonUrl)], undefined, 60_000, env);
const json = async (file: string, ...args: string[]): Promise<any> => {
  const run = await wallet(file, ...args, '--json');
  if (run.code !== 0) throw new Error(`${args.join(' ')}: ${run.stdout}${run.stderr}`);
  return JSON.parse(run.stdout);
};
/**
 * Reverts the simulator to a snapshot, then mines past the top the wallets verified: a private wallet never follows a
 * daemon back below what it has verified, but follows a reorganisation onto a chain that outgrew it.
 */
async function revertAndOutgrow(id: unknown, blocks = 2): Promise<void> {
  await simulator('SIMULATOR.Revert', { id });
  for (let i = 0; i < blocks; i++) await simulator('SIMULATOR.Mine');
}
/** A simulator method, to steer the chain (mine, snapshot, revert). */
async function simulator(method: string, params?: unknown): Promise<any> {
  const answer = await fetch(`${daemonUrl}/json_rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) }),
  });
  return ((await answer.json()) as { result: unknown }).result;
}
const receiverAddress = (await json(receiver, 'address')).address as string;

t.test('a send while the previous one is in the pool is refused before anything is shown, naming it', async (t) => {
  const first = await json(premine, 'send', receiverAddress, '0.5', '--yes', '--no-wait');
  t.match(first, { mined: false });
  // No --yes and no terminal: a refusal after the summary would be "no terminal to confirm on" instead.
  const second = await wallet(premine, 'send', receiverAddress, '0.25');
  t.equal(second.code, 1);
  t.match(
    second.stderr,
    `umbra: a previous transaction ${first.txid} is not mined yet; send again once it is in a block`,
  );
  t.notMatch(second.stderr, /^fee:/m, 'nothing was shown');
  const refused = await wallet(premine, 'send', receiverAddress, '0.25', '--yes', '--json');
  t.match(JSON.parse(refused.stdout).error, { code: 'wallet.previous-transaction-pending' });
  const pool = await simulator('NODE.GetTxPool');
  t.same(pool.txs, [first.txid], 'only the first is in the pool');
  t.match((await json(premine, 'history', '--out', '--limit', '1')).entries, [
    { txid: first.txid, status: 'pending', height: -1 },
  ]);

  await simulator('SIMULATOR.Mine');
  const after = await json(premine, 'send', receiverAddress, '0.25', '--yes', '--no-wait');
  t.match(after.txid, /^[0-9a-f]{64}$/, 'once it is mined, the next send goes');
  await simulator('SIMULATOR.Mine');
});

t.test('a send reverted out of the chain is dropped, spent nothing, and can be sent again', async (t) => {
  const snapshot = await simulator('SIMULATOR.Snapshot');
  const before = (await json(premine, 'balance')).balance as number;
  const received = (await json(receiver, 'balance')).balance as number;
  const sent = await json(premine, 'send', receiverAddress, '1.5', '--yes', '--no-wait');
  await simulator('SIMULATOR.Mine');
  t.match((await json(premine, 'history', '--out', '--limit', '1')).entries, [{ txid: sent.txid, status: 'mined' }]);
  t.equal((await json(receiver, 'balance')).balance, received + 150_000, 'received while mined');

  await revertAndOutgrow(snapshot.id);
  const [entry] = (await json(premine, 'history', '--out', '--limit', '1')).entries;
  const sendAgain = `umbra wallet send ${receiverAddress} 1.50000`;
  t.match(entry, { txid: sent.txid, status: 'dropped', height: -1, send_again: sendAgain });
  const text = await wallet(premine, 'history', '--out');
  t.equal(text.code, 0, text.stderr);
  t.match(text.stdout, new RegExp(`^dropped .* out +1\\.50000 .*${sent.txid.slice(0, 8)}…`, 'm'));
  t.match(
    text.stdout,
    `\ndropped ${sent.txid}: the daemon holds it in neither its pool nor its chain, so it spent nothing; to send it again:\n  ${sendAgain}\n`,
  );
  // The blocks mined past the revert pay the premine, which the simulator mines to.
  const { height } = await simulator('NODE.GetHeight');
  const rewards = blockReward(BigInt(height)) + blockReward(BigInt(height - 1));
  t.equal((await json(premine, 'balance')).balance, before + Number(rewards), 'the balance is as before the send');
  t.equal((await json(receiver, 'balance')).balance, received, 'and the receiver’s too');

  const [, , ...args] = sendAgain.split(' ');
  const again = await json(premine, ...(args as [string]), '--yes', '--no-wait');
  t.match(again, { amount: 150_000 }, 'the offered command sends it again: a dropped send is not pending');
  await simulator('SIMULATOR.Mine');
  const entries = (await json(premine, 'history', '--out')).entries as { txid: string; status: string }[];
  t.same(
    entries.filter((e) => e.txid === again.txid).map((e) => e.status),
    ['mined'],
    'the send again is mined, and listed once',
  );
  // Built on the same state with the same ring positions, it is the very same transaction: then it replaced the entry.
  if (again.txid !== sent.txid)
    t.same(
      entries.filter((e) => e.txid === sent.txid).map((e) => e.status),
      ['dropped'],
    );
});

t.test('a dropped contract call names its contract and offers the call again, arguments and deposit', async (t) => {
  const NAME_SERVICE = `${'0'.repeat(63)}1`;
  const name = `dropped${process.pid}`;
  const snapshot = await simulator('SIMULATOR.Snapshot');
  const called = await json(
    receiver,
    'call',
    NAME_SERVICE,
    'Register',
    `name=${name}`,
    '--deposit',
    '0.001',
    '--yes',
    '--no-wait',
  );
  await simulator('SIMULATOR.Mine');
  await revertAndOutgrow(snapshot.id);
  const [entry] = (await json(receiver, 'history', '--out', '--limit', '1')).entries;
  const callAgain = `umbra wallet call ${NAME_SERVICE} Register name:S=${name} --deposit 0.00100`;
  t.match(entry, {
    txid: called.txid,
    status: 'dropped',
    counterparty: NAME_SERVICE,
    contract: { scid: NAME_SERVICE, entrypoint: 'Register' },
    send_again: callAgain,
  });
  const [, , ...args] = callAgain.split(' ');
  const again = await json(receiver, ...(args as [string]), '--yes', '--no-wait');
  await simulator('SIMULATOR.Mine');
  const entries = (await json(receiver, 'history', '--out')).entries as { txid: string; status: string }[];
  t.same(
    entries.filter((e) => e.txid === again.txid).map((e) => e.status),
    ['mined'],
    'the call again is mined',
  );
});
