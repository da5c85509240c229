/**
 * The light client on the simulator (which checks no proof of work; linkage and state roots still count): an honest
 * chain over several calls' worth of headers, kept across restarts; the lies it refuses, naming the daemon and leaving
 * the header file as it was; a reorganisation to a heavier fork found below a whole call of headers; a checkpoint start.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { toHex } from '../../../protocol/bytes.js';
import { BlockErrorCode } from '../../../protocol/chain/block-errors.js';
import { genesisCheckpoint } from '../../../protocol/chain/checkpoints.js';
import { UmbraError } from '../../../core-native/ts/errors.js';
import { headerFilePath } from '../../../wallet/light-client/header-file.js';
import { LightClient, type SyncProgress } from '../../../wallet/light-client/light-client.js';
import { parseCheckpoint } from '../../../wallet/light-client/trusted-start.js';
import { WalletErrorCode } from '../../../wallet/wallet-error.js';
import { mineBlock, openTestChain, type TestChain } from '../../helpers/chain.js';
import { headerDaemon, servedChain } from '../../helpers/header-daemon.js';

const LONG = 1010;
const FORK_HEIGHT = 5n;

const dir = mkdtempSync(join(tmpdir(), 'umbra-light-client-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

// Chain `a`, longer than one call of headers, and `b`, which shares a's first blocks and then outgrows it.
const a = await openTestChain({ network: 'simulator' });
for (let i = 0; i < LONG; i++) await mineBlock(a);
const b = await openTestChain({ network: 'simulator', core: a.core });
b.clock.now = a.clock.now;
for (let height = 1n; height <= FORK_HEIGHT; height++)
  await b.chain.addBlock(a.chain.blockBytes(a.chain.metaAtTopo(height)!.id)!);
b.clock.now += 1_000n;
for (let i = 0; i < LONG + 5; i++) await mineBlock(b);
const { core } = a;

const daemon = await headerDaemon((bytes) => core.sha3_256(bytes));
t.teardown(() => daemon.close());
const url = daemon.client.url;
const open = (name: string, options: Partial<Parameters<typeof LightClient.open>[0]> = {}) =>
  LightClient.open({ core, network: 'simulator', path: headerFilePath(join(dir, name)), ...options });
const fileOf = (name: string): Buffer => readFileSync(headerFilePath(join(dir, name)));
const idAt = (test: TestChain, height: bigint): string => toHex(test.chain.metaAtTopo(height)!.id);

/** The refusal a sync ends with, checked to name the daemon and keep the header file as it was. */
async function refusal(t: Test, client: LightClient, name: string, code: WalletErrorCode): Promise<Error> {
  const before = fileOf(name);
  const error = (await client.sync(daemon.client).then(
    () => new Error('the sync was not refused'),
    (e: unknown) => e,
  )) as Error;
  t.ok(UmbraError.is(error, code), `refused with ${code}: ${error.message}`);
  t.match(error.message, url, 'the message names the daemon');
  t.same(fileOf(name), before, 'the header file is byte-identical');
  return error;
}

t.test('an honest chain, over several calls of headers, kept across a restart', async (t) => {
  daemon.serve(servedChain(a));
  const progress: SyncProgress[] = [];
  const client = open('honest', { onProgress: (step) => progress.push(step) });
  t.equal(client.top, undefined, 'nothing verified before the first sync');
  const top = await client.sync(daemon.client);
  t.equal(top.height, BigInt(LONG));
  t.equal(toHex(top.id), idAt(a, BigInt(LONG)));
  t.equal(top.forkHeight, null, 'no reorganisation');
  t.equal(top.cumulativeWork, a.chain.top.cumulativeWork, 'the work the node counts');
  for (let height = 0n; height <= BigInt(LONG); height += 101n)
    t.equal(toHex(client.stateRootAt(height)!), toHex(a.chain.metaAtTopo(height)!.stateRoot), `state root ${height}`);
  t.equal(client.stateRootAt(BigInt(LONG) + 1n), undefined, 'none above the top');
  t.same(progress.at(-1), { height: BigInt(LONG), top: BigInt(LONG) }, 'progress reaches the top');
  t.ok(progress.length >= 2, 'in steps');

  const calls = daemon.calls.length;
  t.equal((await client.sync(daemon.client)).height, BigInt(LONG), 'nothing new: the same top');
  t.equal(daemon.calls.length, calls + 1, 'in one call');

  const restarted = open('honest');
  t.equal(restarted.top?.height, BigInt(LONG), 'the verified chain survives a restart');
  t.equal(toHex(restarted.header(7n)!.id), idAt(a, 7n));
  t.equal(restarted.header(7n)!.cumulativeWork, a.chain.metaAtTopo(7n)!.cumulativeWork);
  await restarted.close();
  await client.close();
});

t.test('lies are refused, naming the daemon, and the header file stays as it was', async (t) => {
  const client = open('lies');
  daemon.serve(servedChain(a).slice(0, 600));
  await client.sync(daemon.client);

  daemon.serve(servedChain(a).slice(0, 500));
  const behind = await refusal(t, client, 'lies', WalletErrorCode.DaemonBehind);
  t.match(behind.message, 'its top is at height 499, below the top the wallet has verified at height 599');

  // b's block 600 follows b's 599, not a's.
  daemon.serve([...servedChain(a).slice(0, 600), servedChain(b)[600]!]);
  const unlinked = await refusal(t, client, 'lies', WalletErrorCode.HeaderRefused);
  t.match(unlinked.message, `served block 600 (${idAt(b, 600n)}), which fails the ${BlockErrorCode.UnknownTip} check`);

  const lied = servedChain(a).slice(0, 610);
  lied[605] = { ...lied[605]!, id: b.chain.metaAtTopo(605n)!.id };
  daemon.serve(lied);
  const misnamed = await refusal(t, client, 'lies', WalletErrorCode.HeaderRefused);
  t.match(misnamed.message, `served a block at topoheight 605 whose id is not ${idAt(b, 605n)}`);

  // Runs checked before a failing header stay: they are verified.
  const partial = open('partial');
  daemon.serve([...servedChain(a).slice(0, 1005), servedChain(b)[1005]!, ...servedChain(a).slice(1006)]);
  await t.rejects(partial.sync(daemon.client), {
    code: WalletErrorCode.HeaderRefused,
    message: `served block 1005 (${idAt(b, 1005n)}), which fails the ${BlockErrorCode.UnknownTip} check`,
  });
  await t.rejects(partial.sync(daemon.client), { message: 'nothing from block 1005 on was kept' });
  t.equal(open('partial').top?.height, 999n, 'the first call of headers was checked and kept');

  const testnet = await openTestChain({ network: 'testnet', core });
  daemon.serve(servedChain(testnet));
  const stranger = open('stranger');
  await t.rejects(stranger.sync(daemon.client), {
    code: WalletErrorCode.NotOnTrustedChain,
    message: `the daemon at ${url} is not on the chain of the wallet's genesis block: its block 0 is ${toHex(testnet.chain.top.id)}`,
  });
  t.equal(stranger.top, undefined, 'nothing verified');

  daemon.serve(servedChain(a));
  t.equal((await client.sync(daemon.client)).height, BigInt(LONG), 'an honest daemon is followed after all that');
  await client.close();
});

t.test(
  'a heavier fork found more than one call below the top is followed, and a daemon left behind by it is refused',
  async (t) => {
    const client = open('fork');
    daemon.serve(servedChain(a));
    await client.sync(daemon.client);
    const before = fileOf('fork');
    daemon.serve(servedChain(b));
    const top = await client.sync(daemon.client);
    t.equal(top.height, b.chain.top.height);
    t.equal(top.forkHeight, FORK_HEIGHT, 'the fork point');
    t.equal(toHex(client.header(FORK_HEIGHT)!.id), idAt(a, FORK_HEIGHT), 'the shared block stays');
    t.equal(toHex(client.header(FORK_HEIGHT + 1n)!.id), idAt(b, FORK_HEIGHT + 1n), "b's blocks above it");
    t.equal(toHex(client.stateRootAt(600n)!), toHex(b.chain.metaAtTopo(600n)!.stateRoot));
    t.notOk(fileOf('fork').equals(before), 'saved');
    t.equal(toHex(open('fork').top!.id), toHex(b.chain.top.id), 'and kept across a restart');

    daemon.serve(servedChain(a));
    await refusal(t, client, 'fork', WalletErrorCode.DaemonBehind);
    await client.close();
  },
);

t.test('a checkpoint start: nothing below it is asked for or held', async (t) => {
  const checkpoint = parseCheckpoint(`1000:${idAt(a, 1000n)}`);
  daemon.serve(servedChain(a));
  const client = open('checkpoint', { start: checkpoint });
  const from = daemon.calls.length;
  t.equal((await client.sync(daemon.client)).height, BigInt(LONG));
  t.ok(
    daemon.calls.slice(from).every((call) => call.topoheight >= 999),
    'only the checkpoint, its parent and the blocks after it are fetched',
  );
  t.equal(client.header(999n), undefined);
  t.equal(toHex(client.stateRootAt(1000n)!), toHex(a.chain.metaAtTopo(1000n)!.stateRoot));
  t.equal(client.header(1005n)!.cumulativeWork, a.chain.metaAtTopo(1005n)!.cumulativeWork);
  await client.close();

  const elsewhere = open('elsewhere', { start: parseCheckpoint(`1000:${idAt(b, 1000n)}`) });
  await t.rejects(elsewhere.sync(daemon.client), {
    code: WalletErrorCode.NotOnTrustedChain,
    message: `is not on the chain of the wallet's checkpoint 1000:${idAt(b, 1000n)}: its block 1000 is ${idAt(a, 1000n)}`,
  });
  t.throws(() => open('checkpoint', { start: genesisCheckpoint('simulator') }), {
    code: WalletErrorCode.BadCheckpoint,
    message: /is not on the chain the header file .* holds \(heights 1000 to 1010\); delete the file/,
  });
  t.equal(open('checkpoint', { start: checkpoint }).top?.height, BigInt(LONG), 'the same checkpoint opens it');
  for (const text of ['1000', `x:${idAt(a, 1n)}`, `5:${idAt(a, 1n).slice(2)}`])
    t.throws(() => parseCheckpoint(text), {
      code: WalletErrorCode.BadCheckpoint,
      message: /a checkpoint is HEIGHT:HASH/,
    });
});

t.test('a damaged header file, or one of another network, is refused with what to do', async (t) => {
  const path = headerFilePath(join(dir, 'honest'));
  const good = readFileSync(path);
  t.throws(() => LightClient.open({ core, network: 'testnet', path }), {
    code: WalletErrorCode.HeaderFileDamaged,
    message: /holds a simulator chain, not a testnet one; delete it to verify the headers again/,
  });
  const flipped = Buffer.from(good);
  flipped[100]! ^= 1;
  writeFileSync(path, flipped);
  t.throws(() => open('honest'), { code: WalletErrorCode.HeaderFileDamaged, message: /checksum does not match/ });
  writeFileSync(path, good.subarray(0, 50));
  t.throws(() => open('honest'), { code: WalletErrorCode.HeaderFileDamaged });
  writeFileSync(path, 'not headers');
  t.throws(() => open('honest'), { code: WalletErrorCode.HeaderFileDamaged, message: /not a header file/ });
});
