/**
 * `umbra wallet balance|address|register|seed|history|send|call|install` end to end: the real CLI as child processes against a
 * real `umbra simulator` (16 registered accounts, so that the default ring of 16 can be filled). The test itself
 * makes no RPC call: it restores the premine wallet and simulator wallet 0 from their public keys and uses the CLI.
 */
import t, { type Test } from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { simulatorWalletSecret } from '../../../cli/simulator-command.js';
import { encodeIntegratedAddress, splitAddress } from '../../../protocol/address.js';
import { secretKeyToMnemonic } from '../../../protocol/mnemonic.js';
import { premineSecret } from '../../../protocol/premine.js';
import { runCli, walletFlags } from '../../helpers/cli.js';
import { startWalletSimulator } from '../../helpers/wallet-simulator.js';

const core = await loadCore();
const { env, passwordFile, daemonUrl, restore } = await startWalletSimulator(t, 'umbra-wallet-commands-', 15);
const NAME_SERVICE = `${'0'.repeat(63)}1`;

const premine = await restore('premine', premineSecret(core, 'simulator'));
const receiver = await restore('wallet0', simulatorWalletSecret(core, 0));

/** `umbra wallet COMMAND … --wallet-file FILE` with the password file and the simulator's daemon. */
const wallet = (file: string, command: string, ...args: string[]) =>
  runCli(['wallet', command, ...args, ...walletFlags(file, passwordFile, daemonUrl!)], undefined, 60_000, env);
/** The same with --json, parsed; the run must succeed. */
async function json(t: Test, file: string, command: string, ...args: string[]): Promise<any> {
  const run = await wallet(file, command, ...args, '--json');
  t.equal(run.code, 0, `${command} ${args.join(' ')}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

const receiverAddress = (await json(t, receiver, 'address')).address as string;

t.test('address and balance, as text and as JSON', async (t) => {
  const text = await wallet(receiver, 'address');
  t.equal(text.stdout, `${receiverAddress}\n`);
  t.same(await json(t, receiver, 'address'), { address: receiverAddress, network: 'simulator' });
  const balance = await json(t, receiver, 'balance');
  t.equal(balance.balance, 800_000, 'a simulator wallet starts with 800 000 atomic units, as a JSON integer');
  t.equal(balance.asset, '0'.repeat(64));
  t.match((await wallet(receiver, 'balance')).stdout, /^balance: +8\.00000 UMB \(800000 atomic units\)$/m);
});

t.test('send in coins (ring 16), in atomic units, to an integrated address and to a registered name', async (t) => {
  const coins = await json(t, premine, 'send', receiverAddress, '1.5', '--yes');
  t.match(coins, { address: receiverAddress, amount: 150_000, ring_size: 16, mined: true });
  t.match(coins.txid, /^[0-9a-f]{64}$/);
  t.ok(coins.block_height > 0 && coins.fee > 0, 'mined, with its fee');

  const atomic = await wallet(premine, 'send', receiverAddress, '250u', '--ring', '2', '--yes');
  t.equal(atomic.code, 0, atomic.stderr);
  t.match(atomic.stdout, /^sent: +0\.00250 UMB \(250 atomic units\)$/m);
  t.match(atomic.stdout, /^block: +\d+$/m);
  t.match(atomic.stderr, /^amount: +0\.00250 UMB \(250 atomic units\)$/m, 'what is sent is shown first');
  t.match(atomic.stderr, /^fee: +0\.00060 UMB \(60 atomic units\)$/m);

  const { publicKey } = splitAddress(receiverAddress);
  const integrated = encodeIntegratedAddress('simulator', publicKey, [{ name: 'C', datatype: 'S', value: 'order 7' }]);
  const toIntegrated = await json(t, premine, 'send', integrated, '0.00001', '--ring', '2', '--yes');
  t.match(toIntegrated, { destination: integrated, address: receiverAddress, amount: 1 });

  const name = `wallet0${process.pid}`;
  const registered = await json(t, receiver, 'call', NAME_SERVICE, 'Register', `name=${name}`, '--yes');
  t.match(registered, { scid: NAME_SERVICE, entrypoint: 'Register', ring_size: 2, mined: true });
  t.same(registered.sc_outcome, { status: 'committed', code: 0, gascompute: registered.sc_outcome.gascompute });
  const toName = await json(t, premine, 'send', name, '0.1', '--ring', '2', '--yes');
  t.match(toName, { destination: name, address: receiverAddress, amount: 10_000 });

  const received = await json(t, receiver, 'history', '--in');
  const incoming = received.entries.filter((e: { txid: string }) =>
    [coins.txid, toIntegrated.txid, toName.txid].includes(e.txid),
  );
  t.same(
    incoming.map((e: { amount: number; direction: string }) => [e.direction, e.amount]),
    [
      ['in', 150_000],
      ['in', 1],
      ['in', 10_000],
    ],
  );
  const sent = await json(t, premine, 'history', '--out', '--limit', '2');
  t.equal(sent.entries.length, 2);
  t.same(
    sent.entries.map((e: { txid: string }) => e.txid),
    [toIntegrated.txid, toName.txid],
  );
  t.equal(sent.entries[1].counterparty, receiverAddress);
  const table = await wallet(premine, 'history', '--out', '--limit', '1');
  t.match(table.stdout, /^height +time +in\/out +amount \(UMB\) +fee \(UMB\) +counterparty +txid/);
  t.match(table.stdout, new RegExp(`out +0\\.10000 +0\\.00060 .*${toName.txid.slice(0, 8)}…${toName.txid.slice(-8)}`));
});

t.test('install a contract and call it with a deposit; its token balance and history', async (t) => {
  const installed = await json(t, receiver, 'install', 'examples/contracts/asset.bas', '--yes');
  t.match(installed, { ring_size: 2, mined: true });
  t.equal(installed.scid, installed.txid, 'the SCID is the install’s txid');
  const text = await wallet(receiver, 'call', installed.scid, 'IssueAsset', '--deposit', '0.5', '--yes');
  t.equal(text.code, 0, text.stderr);
  t.match(text.stdout, /^called: +IssueAsset of [0-9a-f]{64}$/m);
  t.match(text.stdout, /^outcome: +/m);
  t.match(text.stderr, /^deposit: +0\.50000 UMB \(50000 atomic units\)$/m);
  t.equal((await json(t, receiver, 'balance', '--asset', installed.scid)).balance, 50_000, 'issued 1:1');
  const tokenHistory = await json(t, receiver, 'history', '--asset', installed.scid);
  t.ok(tokenHistory.entries.length >= 1, 'the token’s history has the issue');
  t.match(
    tokenHistory.entries.at(-1),
    { direction: 'in', counterparty: installed.scid, contract: { scid: installed.scid, entrypoint: 'IssueAsset' } },
    'the token the contract paid names the contract and the call',
  );

  const [install, issue] = (await json(t, receiver, 'history', '--out', '--limit', '2')).entries;
  t.match(install, { txid: installed.scid, counterparty: installed.scid, contract: { scid: installed.scid } });
  t.notOk('entrypoint' in install.contract, 'an install calls no entry point');
  t.match(issue, { counterparty: installed.scid, contract: { scid: installed.scid, entrypoint: 'IssueAsset' } });
  const short = `${installed.scid.slice(0, 8)}…${installed.scid.slice(-8)}`;
  const table = (await wallet(receiver, 'history', '--out', '--limit', '2')).stdout;
  t.match(table, new RegExp(`out .* ${short} \\(install\\) +${short}`), 'the install names its contract');
  t.match(table, new RegExp(`out .* ${short} IssueAsset +[0-9a-f]{8}…`), 'the call names the contract and entry point');
});

t.test(
  'a call that would fail is refused before sending; with --force it is mined and its outcome shown',
  async (t) => {
    const installed = await json(t, receiver, 'install', 'examples/contracts/asset.bas', '--yes');
    const before = (await json(t, receiver, 'balance')).balance;
    // IssueAsset returns 1 to an anonymous caller: a ring of 4 hides the signer.
    const call = ['call', installed.scid, 'IssueAsset', '--ring', '4', '--yes'];
    const refused = await wallet(receiver, call[0]!, ...call.slice(1), '--json');
    t.equal(refused.code, 1);
    t.match(JSON.parse(refused.stdout).error, {
      code: 'wallet.contract-call-would-fail',
      message: /^the contract call would fail: .*returned 1.*; nothing was sent \(.*--force.*\)/,
    });
    t.equal((await json(t, receiver, 'balance')).balance, before, 'nothing was spent');

    const forced = await json(t, receiver, ...(call as [string, ...string[]]), '--force');
    t.match(forced, { mined: true, ring_size: 4, sc_outcome: { status: 'returned', code: 1 } });
    t.equal((await json(t, receiver, 'balance')).balance, before - forced.fee, 'the fee was paid');
    const text = await wallet(receiver, 'history', '--out', '--limit', '1');
    t.match(text.stdout, /returned 1 *$/m, 'the history table shows the outcome');
    const [entry] = (await json(t, receiver, 'history', '--out', '--limit', '1')).entries;
    t.match(entry, { txid: forced.txid, sc_outcome: { status: 'returned', code: 1 } });
    // The daemon's own record of it (read here only to check what the CLI showed).
    const answer = await fetch(`${daemonUrl}/json_rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'NODE.GetTransaction',
        params: { txs_hashes: [forced.txid] },
      }),
    });
    const { result } = (await answer.json()) as { result: { txs: { sc_outcome: unknown }[] } };
    t.same(result.txs[0]!.sc_outcome, forced.sc_outcome);
  },
);

t.test('a mistyped entry point or argument is refused before anything is asked, naming the closest', async (t) => {
  const lottery = (await json(t, receiver, 'install', 'examples/contracts/lottery.bas', '--yes')).scid as string;
  const cases: [string[], RegExp][] = [
    [
      [lottery, 'Lottery', 'lotteryeveryXdeposits=3'],
      /^umbra: unknown argument lotteryeveryXdeposits \(did you mean lotteryeveryXdeposit of TuneLotteryParameters\?\): Lottery's parameters: value \(the coin deposit: --deposit\)$/m,
    ],
    [
      [lottery, 'TuneLotteryParameters', 'input=1', 'lotteryeveryXdeposits=3', 'lotterygiveback=9000'],
      /^umbra: unknown argument lotteryeveryXdeposits \(did you mean lotteryeveryXdeposit\?\): TuneLotteryParameters's parameters: input \(Uint64\), lotteryeveryXdeposit \(Uint64\), lotterygiveback \(Uint64\)$/m,
    ],
    [
      [lottery, 'TuneLotteryParameters', 'input=1'],
      /^umbra: TuneLotteryParameters needs arguments lotteryeveryXdeposit, lotterygiveback: TuneLotteryParameters's parameters: /m,
    ],
    [
      [lottery, 'Lotery'],
      new RegExp(
        `^umbra: contract ${lottery} has no entry point Lotery \\(did you mean Lottery\\?\\); its entry points: Initialize, Lottery, TuneLotteryParameters, TransferOwnership, ClaimOwnership, Withdraw, UpdateCode$`,
        'm',
      ),
    ],
    [
      [lottery, 'isOwner'],
      /^umbra: isOwner is private: only functions whose name starts with a capital letter are entry points$/m,
    ],
  ];
  for (const [args, message] of cases) {
    // No --yes and no terminal: a refusal after the summary would be "no terminal to confirm on" instead.
    const run = await wallet(receiver, 'call', ...args);
    t.equal(run.code, 1, args.join(' '));
    t.match(run.stderr, message, args.join(' '));
    t.notMatch(run.stderr, /^fee:/m, 'nothing was shown');
    t.match(JSON.parse((await wallet(receiver, 'call', ...args, '--json')).stdout).error, { code: 'cli.bad-argument' });
  }
});

t.test('a new wallet: balance names `register`, which puts the account on chain once', async (t) => {
  const fresh = await restore('fresh', simulatorWalletSecret(core, 100));
  const unregistered = await wallet(fresh, 'balance', '--json');
  t.equal(unregistered.code, 1);
  t.match(JSON.parse(unregistered.stdout).error, {
    code: 'wallet.account-unregistered',
    message: /is not registered on this chain yet.*`umbra wallet register` registers it/,
  });
  const registered = await wallet(fresh, 'register');
  t.equal(registered.code, 0, registered.stderr);
  t.match(registered.stdout, /^registered: umbt1[a-z0-9]+ \(in [\d.]+ s\)$/m);
  t.match(registered.stderr, /^registration: waiting for block \d+$/m, 'the steps are shown as they happen');
  t.match(await json(t, fresh, 'register'), { already_registered: true, seconds: 0 });
  t.equal((await json(t, fresh, 'balance')).balance, 0);
});

t.test('seed: refused without a terminal, shown with --yes', async (t) => {
  const refused = await wallet(receiver, 'seed');
  t.equal(refused.code, 1);
  t.match(refused.stderr, /^umbra: no terminal to confirm on: add --yes to show the seed words without asking$/m);
  t.equal(refused.stdout, '');
  t.same(await json(t, receiver, 'seed', '--yes'), { mnemonic: secretKeyToMnemonic(simulatorWalletSecret(core, 0)) });
});

t.test('errors: clear lines, and JSON documents under --json', async (t) => {
  const cases: [string[], string, RegExp][] = [
    [['send', receiverAddress, '1.234567', '--yes'], 'amount.malformed', /not an amount: give coins with up to 5/],
    [['send', receiverAddress, '-1', '--yes'], 'amount.malformed', /not an amount/],
    [
      ['call', '00'.repeat(32), 'Register', '--deposit', '0.5x'],
      'amount.malformed',
      /--deposit "0\.5x" is not an amount/,
    ],
    [
      ['call', '00'.repeat(32), 'Register', '--asset-deposit', `${'00'.repeat(32)}:1.234567`],
      'amount.malformed',
      /--asset-deposit amount "1\.234567" is not an amount/,
    ],
    [['send', receiverAddress, '1', '--bogus'], 'cli.usage', /unknown option '--bogus'/],
    [['send', receiverAddress], 'cli.usage', /missing required argument 'amount'/],
    [['send', receiverAddress, '1'], 'cli.no-terminal', /no terminal to confirm on: add --yes/],
    [['send', 'nosuchname', '1', '--yes'], 'wallet.unknown-destination', /neither an address .* nor a registered name/],
    [['send', receiverAddress, '1', '--ring', '3', '--yes'], 'cli.bad-argument', /--ring must be a power of two/],
    [['balance', '--network', 'nonet'], 'cli.usage', /argument 'nonet' is invalid/],
    [['balance', '--testnet'], 'cli.wrong-network', /is a simulator wallet, not testnet/],
  ];
  for (const [args, code, message] of cases) {
    const run = await wallet(premine, args[0]!, ...args.slice(1), '--json');
    t.equal(run.code, 1, args.join(' '));
    t.same(Object.keys(JSON.parse(run.stdout)), ['ok', 'error'], 'one JSON document');
    t.match(JSON.parse(run.stdout).error, { code, message }, args.join(' '));
    const text = await wallet(premine, args[0]!, ...args.slice(1));
    t.equal(text.code, 1);
    t.match(text.stderr, message, 'the same, as a line');
    t.notMatch(text.stderr, /\n\s+at /, 'no stack trace');
  }
});

t.test('send --no-wait answers once the daemon has the transaction', async (t) => {
  const sent = await json(t, premine, 'send', receiverAddress, '0.00002', '--ring', '2', '--yes', '--no-wait');
  t.match(sent, { amount: 2, mined: false });
  t.notOk('block_height' in sent, 'no block was waited for');
});
