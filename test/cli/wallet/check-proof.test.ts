/**
 * `umbra wallet send` prints a payment proof and `umbra wallet check-proof` checks it, end to end: the real CLI as
 * child processes against a real `umbra simulator`. The right proof names the receiver and the amount; a proof of
 * another transaction, a tampered proof and garbage are refused with their reason (exit status 1), as text and JSON.
 */
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { simulatorWalletSecret } from '../../../cli/simulator-command.js';
import { decodePaymentProof, encodePaymentProof } from '../../../protocol/address.js';
import { premineSecret } from '../../../protocol/premine.js';
import { runCli, walletFlags } from '../../helpers/cli.js';
import { startWalletSimulator } from '../../helpers/wallet-simulator.js';

const core = await loadCore();
const { env, passwordFile, daemonUrl, restore } = await startWalletSimulator(t, 'umbra-check-proof-', 2);
const premine = await restore('premine', premineSecret(core, 'simulator'));
const receiver = await restore('wallet0', simulatorWalletSecret(core, 0));

const wallet = (file: string, command: string, ...args: string[]) =>
  runCli(['wallet', command, ...args, ...walletFlags(file, passwordFile, daemonUrl)], undefined, 60_000, env);
const checkProof = (...args: string[]) =>
  runCli(['wallet', 'check-proof', ...args, '--daemon-address', daemonUrl], undefined, 60_000, env);

const receiverAddress = (await wallet(receiver, 'address')).stdout.trim();
const sentText = await wallet(premine, 'send', receiverAddress, '1.5', '--ring', '2', '--yes');
const sentJson = await wallet(premine, 'send', receiverAddress, '0.25', '--ring', '2', '--yes', '--json');
const first = {
  txid: /^txid: +([0-9a-f]{64})$/m.exec(sentText.stdout)?.[1] ?? '',
  proof: /^proof: +(umbproof1[0-9a-z]+)$/m.exec(sentText.stdout)?.[1] ?? '',
};
const second = JSON.parse(sentJson.stdout) as { txid: string; proof: string; amount: number };

t.test('send prints the payment proof, as text and in JSON', async (t) => {
  t.equal(sentText.code, 0, sentText.stderr);
  t.match(first, { txid: /^[0-9a-f]{64}$/, proof: /^umbproof1/ });
  t.match(second, { amount: 25_000, proof: /^umbproof1/ });
});

t.test('the right proof: the receiver, the amount, the ring member and the block', async (t) => {
  const text = await checkProof(first.txid, first.proof);
  t.equal(text.code, 0, text.stderr);
  t.match(text.stdout, new RegExp(`^proof: +fits transaction ${first.txid}$`, 'm'));
  t.match(text.stdout, new RegExp(`^receiver: +${receiverAddress}$`, 'm'));
  t.match(text.stdout, /^amount: +1\.50000 UMB \(150000 atomic units\)$/m);
  t.match(text.stdout, /^ring member: +[12] of 2 \(payload 1\)$/m);
  t.match(text.stdout, /^transaction: +in block \d+$/m);

  const json = await checkProof(second.txid, second.proof, '--json');
  t.equal(json.code, 0, json.stderr);
  t.match(JSON.parse(json.stdout), {
    txid: second.txid,
    valid: true,
    receiver: receiverAddress,
    amount: 25_000,
    asset: '0'.repeat(64),
    payload: 0,
    ring_size: 2,
    payload_rpc: [],
    in_pool: false,
    block_height: Number,
  });
  t.equal((await checkProof(first.txid, first.proof, '--network', 'simulator')).code, 0, 'the network named');
});

t.test('a proof of another transaction', async (t) => {
  const text = await checkProof(first.txid, second.proof);
  t.equal(text.code, 1);
  t.equal(
    text.stderr,
    `umbra: no member of the ring of transaction ${first.txid} received the payment this proof shows: it was made for another transaction\n`,
  );
  const json = await checkProof(first.txid, second.proof, '--json');
  t.equal(json.code, 1);
  t.match(JSON.parse(json.stdout), { ok: false, error: { code: 'payment-proof.other-transaction' } });
});

t.test('a tampered proof: a changed character, a changed amount', async (t) => {
  const typo = `${first.proof.slice(0, 20)}${first.proof[20] === 'q' ? 'p' : 'q'}${first.proof.slice(21)}`;
  const mistyped = await checkProof(first.txid, typo);
  t.equal(mistyped.code, 1);
  t.equal(mistyped.stderr, 'umbra: not a valid payment proof: it has a typo (its checksum does not match)\n');

  const { blinder, shared } = decodePaymentProof(first.proof);
  const more = await checkProof(first.txid, encodePaymentProof(blinder, shared, 150_001n), '--json');
  t.equal(more.code, 1);
  t.match(JSON.parse(more.stdout), {
    ok: false,
    error: {
      code: 'payment-proof.wrong-amount',
      message: new RegExp(
        `^the proof opens the payload of ${receiverAddress} \\(ring member [12] of 2\\), but that member did not receive 1\\.50001 UMB \\(150001 atomic units\\): the proof's amount was altered$`,
      ),
    },
  });
});

t.test('garbage input: clear errors, no stack trace', async (t) => {
  const cases: [string[], RegExp][] = [
    [[first.txid, 'hello'], /^umbra: not a valid payment proof: it does not start with umbproof1\n$/],
    [[first.txid, receiverAddress], /^umbra: a payment proof starts with 'umbproof1', not 'umbt1'\n$/],
    [['xyz', first.proof], /^umbra: TXID must be 64 hex digits, got "xyz"\n$/],
    [
      ['ab'.repeat(32), first.proof],
      new RegExp(`^umbra: no transaction ${'ab'.repeat(32)} on the chain of the daemon at .*, nor in its pool\\n$`),
    ],
    [[first.txid, first.proof, '--network', 'mainnet'], /^umbra: the daemon at .* runs simulator, not mainnet\n$/],
  ];
  for (const [args, stderr] of cases) {
    const run = await checkProof(...args);
    t.equal(run.code, 1, args.join(' '));
    t.match(run.stderr, stderr);
  }
  const missing = await runCli(['wallet', 'check-proof', first.txid, '--json'], undefined, 60_000, env);
  t.equal(missing.code, 1);
  t.match(JSON.parse(missing.stdout), {
    ok: false,
    error: { code: 'cli.usage', message: /missing required argument/ },
  });
  const offline = await runCli(
    ['wallet', 'check-proof', first.txid, first.proof, '--daemon-address', '127.0.0.1:9'],
    undefined,
    60_000,
    env,
  );
  t.equal(offline.code, 1);
  t.match(offline.stderr, /start the daemon, or name it with --daemon-address/);
});
