/**
 * The light client on testnet rules, every miniblock's proof of work checked on worker threads: an honest chain; a
 * miniblock that misses its target; work, not length, deciding between forks; a checkpoint whose difficulty comes from
 * the daemon and is held to the block's proof of work.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { PowCheckPool } from '../../../core-native/ts/pow-check-pool.js';
import { meetsTarget } from '../../../core-native/ts/pow-target.js';
import { decodeBlock, encodeBlock } from '../../../protocol/block.js';
import { toHex } from '../../../protocol/bytes.js';
import { BlockErrorCode } from '../../../protocol/chain/block-errors.js';
import { encodeMiniblock } from '../../../protocol/miniblock.js';
import { headerFilePath } from '../../../wallet/light-client/header-file.js';
import { LightClient, type SyncProgress } from '../../../wallet/light-client/light-client.js';
import { WalletErrorCode } from '../../../wallet/wallet-error.js';
import { mineBlock, openTestChain, type TestChain } from '../../helpers/chain.js';
import { headerDaemon, servedChain, type ServedBlock } from '../../helpers/header-daemon.js';

const dir = mkdtempSync(join(tmpdir(), 'umbra-light-client-pow-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const core = await loadCore();
const pool = new PowCheckPool({ impl: core.impl });
t.teardown(() => pool.close());

/** Mines a block `gapMs` after the top (the miner's clock moves by that much). */
async function mineAfter(test: TestChain, gapMs: bigint): Promise<void> {
  test.clock.now += gapMs - 18_000n;
  await mineBlock(test);
}

// `fast`: blocks 1 ms apart, so block 3 is mined above the minimum difficulty; `slow`: 36 s apart, all at the minimum.
// Both reach height 3; fast carries more work.
const fast = await openTestChain({ network: 'testnet', core });
for (const gap of [18_000n, 1n, 1n]) await mineAfter(fast, gap);
const slow = await openTestChain({ network: 'testnet', core });
for (const gap of [36_000n, 36_000n, 36_000n]) await mineAfter(slow, gap);
const fastTop = fast.chain.top;
t.ok(fastTop.cumulativeWork > slow.chain.top.cumulativeWork, 'the fast chain carries more work');

const daemon = await headerDaemon((bytes) => core.sha3_256(bytes));
t.teardown(() => daemon.close());
const url = daemon.client.url;
const open = (name: string, options: Partial<Parameters<typeof LightClient.open>[0]> = {}) =>
  LightClient.open({ core, network: 'testnet', path: headerFilePath(join(dir, name)), pool, ...options });
const fileOf = (name: string): Buffer => readFileSync(headerFilePath(join(dir, name)));

t.test('an honest testnet chain: difficulty, work and every proof of work checked', async (t) => {
  daemon.serve(servedChain(fast));
  const progress: SyncProgress[] = [];
  const client = open('honest', { onProgress: (step) => progress.push(step) });
  const top = await client.sync(daemon.client);
  t.equal(toHex(top.id), toHex(fastTop.id));
  for (let height = 1n; height <= 3n; height++) {
    const meta = fast.chain.metaAtTopo(height)!;
    t.equal(client.header(height)!.difficulty, meta.difficulty, `block ${height}: the difficulty it was mined at`);
    t.equal(client.header(height)!.cumulativeWork, meta.cumulativeWork, `block ${height}: the work through it`);
  }
  t.ok(client.header(3n)!.difficulty > client.header(2n)!.difficulty, 'the rule raised the difficulty');
  t.same(progress.at(-1), { height: 3n, top: 3n });
});

t.test('a miniblock that misses its target is refused, naming the block and the check', async (t) => {
  const client = open('forged');
  daemon.serve(servedChain(fast).slice(0, 3));
  await client.sync(daemon.client);
  const before = fileOf('forged');

  const block = decodeBlock(servedChain(fast)[3]!.bytes);
  const miniblock = block.miniblocks[3]!;
  const difficulty = fast.chain.metaAtTopo(3n)!.difficulty;
  // One changed nonce in ~56 still meets the target; take the first that does not.
  const original = miniblock.nonce[0];
  for (let k = 1; ; k++) {
    miniblock.nonce = [(original ^ k) >>> 0, 7, 7];
    if (!meetsTarget(core.powHash(encodeMiniblock(miniblock)), difficulty)) break;
  }
  const forged: ServedBlock = { ...servedChain(fast)[3]!, bytes: encodeBlock(block) };
  daemon.serve([...servedChain(fast).slice(0, 3), forged]);
  const error = await client.sync(daemon.client).catch((e: Error) => e);
  t.match(error, {
    code: WalletErrorCode.HeaderRefused,
    message: `the daemon at ${url} served block 3 (${toHex(core.sha3_256(forged.bytes))}), which fails the ${BlockErrorCode.BadPow} check: miniblock 3 does not meet its proof-of-work target (difficulty ${difficulty})`,
    cause: { code: BlockErrorCode.BadPow },
  });
  t.same(fileOf('forged'), before, 'the header file is byte-identical');
  t.equal(client.top!.height, 2n, 'the verified top stays');

  daemon.serve(servedChain(fast));
  t.equal((await client.sync(daemon.client)).height, 3n, 'the honest block 3 is taken');
});

t.test('between forks of one height, work decides: less is refused, more is followed', async (t) => {
  const heavy = open('honest');
  daemon.serve(servedChain(slow));
  const before = fileOf('honest');
  await t.rejects(heavy.sync(daemon.client), {
    code: WalletErrorCode.LessWork,
    message:
      `the daemon at ${url} serves a chain that forks from the verified one above height 0 with less work: ` +
      `${slow.chain.top.cumulativeWork} through height 3, against ${fastTop.cumulativeWork} through height 3`,
  });
  t.same(fileOf('honest'), before, 'the header file is byte-identical');

  const light = open('light');
  await light.sync(daemon.client);
  t.equal(toHex(light.top!.id), toHex(slow.chain.top.id));
  daemon.serve(servedChain(fast));
  const top = await light.sync(daemon.client);
  t.equal(toHex(top.id), toHex(fastTop.id), 'the heavier fork is followed');
  t.equal(top.forkHeight, 0n, 'from genesis');
});

t.test("a checkpoint's difficulty comes from the daemon, held to the block's proof of work", async (t) => {
  const checkpoint = { height: 2n, id: fast.chain.metaAtTopo(2n)!.id };
  daemon.serve(servedChain(fast));
  const client = open('checkpoint', { start: checkpoint });
  await client.sync(daemon.client);
  t.equal(client.header(3n)!.difficulty, fastTop.difficulty, 'the next difficulty follows from it');
  t.equal(client.header(3n)!.cumulativeWork, fastTop.cumulativeWork);
  t.equal(open('checkpoint').header(3n)!.difficulty, fastTop.difficulty, 'and after a restart');

  const claiming = (difficulty: bigint): ServedBlock[] => {
    const chain = servedChain(fast);
    chain[2] = { ...chain[2]!, difficulty, cumulativeWork: chain[1]!.cumulativeWork + difficulty };
    return chain;
  };
  daemon.serve(claiming(10n ** 12n));
  await t.rejects(open('too-hard', { start: checkpoint }).sync(daemon.client), {
    code: WalletErrorCode.HeaderRefused,
    message: `served block 2 (${toHex(checkpoint.id)}), which fails the ${BlockErrorCode.BadPow} check`,
  });
  daemon.serve(claiming(49n));
  await t.rejects(open('too-easy', { start: checkpoint }).sync(daemon.client), {
    code: WalletErrorCode.HeaderRefused,
    message: 'claims difficulty 49 and work',
  });
});
