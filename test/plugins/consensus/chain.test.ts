/** The chain through its real parts: genesis, mining through templates, rewards, validation failures, reorganisations. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { bigintToBytes32BE } from '../../../core-native/ts/bigint-bytes.js';
import { decodeBlock, encodeBlock, type Block } from '../../../protocol/block.js';
import { toHex } from '../../../protocol/bytes.js';
import { blockReward } from '../../../protocol/chain-params.js';
import { decodeMiniblock, pastOf } from '../../../protocol/miniblock.js';
import { createLogger } from '../../../host/logger.js';
import { MemoryStore } from '../../../host/storage/memory-store.js';
import { RocksDbStore } from '../../../host/storage/rocksdb-store.js';
import { NATIVE_ASSET } from '../../../plugins/consensus/accounts.js';
import { BlockErrorCode, BlockRejected, TransactionRejected } from '../../../protocol/chain/block-errors.js';
import { MAX_ORPHANS_PER_SOURCE, ORPHAN_TTL_MS } from '../../../plugins/consensus/orphan-pool.js';
import { TransactionErrorCode } from '../../../protocol/transaction-errors.js';
import { encodeAddress } from '../../../protocol/address.js';
import { premineKey, premineSecret } from '../../../protocol/premine.js';
import { mineBlock, openTestChain, type TestChain } from '../../helpers/chain.js';
import { buildTestTransfer, premineAccount, registeredAccounts } from '../../helpers/transfers.js';

/** The block the template machinery would make next, complete and valid, without adding it (simulator: no PoW). */
async function nextBlock(test: TestChain): Promise<Block> {
  test.clock.now += 18_000n;
  for (;;) {
    const job = test.mining.template(test.premine);
    if (job.final) return { ...job.block!, miniblocks: [...job.block!.miniblocks, decodeMiniblock(job.blob)] };
    await test.mining.submit(job.id, job.blob);
  }
}

t.test('genesis: the premine key is registered and funded; the header commits to the state root', async (t) => {
  const test = await openTestChain();
  const { chain } = test;
  t.equal(chain.top.height, 0n);
  const genesis = chain.block(chain.top.id)!;
  t.same(genesis.tips, []);
  t.same(genesis.stateRoot, chain.top.stateRoot, 'header state root = executed root');
  t.ok(chain.isRegistered(test.premine), 'premine key registered');
  const balance = test.accounts.read(chain.top.stateVersion).getBalance(NATIVE_ASSET, test.premine)!;
  const { G } = test.core.generators('UMBRA');
  const premine = 2_000_000_000_000n;
  const expectedL = test.core.g1Add(
    test.core.g1Decompress(test.premine),
    test.core.g1Mul(G, bigintToBytes32BE(premine)),
  );
  t.same(test.core.g1Decompress(balance.L), expectedL, 'L = Y + premine·G');
  t.same(balance.R, test.core.g1Compress(G), 'R = G');
});

t.test(
  'mining through templates: nine miniblocks then the final one; rewards paid; every main-chain index updated',
  async (t) => {
    const test = await openTestChain();
    const { chain } = test;
    const before = test.accounts.read(chain.top.stateVersion).getBalance(NATIVE_ASSET, test.premine)!;
    const blid = await mineBlock(test);
    t.equal(chain.top.height, 1n);
    t.equal(toHex(chain.top.id), blid);
    const block = chain.block(chain.top.id)!;
    t.equal(block.miniblocks.length, 10);
    t.ok(block.miniblocks[9]!.final);
    t.equal(chain.topoOf(chain.top), 1n);
    const after = test.accounts.read(chain.top.stateVersion).getBalance(NATIVE_ASSET, test.premine)!;
    // All ten shares went to the premine key: L grew by exactly the block reward.
    const { G } = test.core.generators('UMBRA');
    const reward = test.core.g1Mul(G, bigintToBytes32BE(blockReward(1n)));
    t.same(test.core.g1Decompress(after.L), test.core.g1Add(test.core.g1Decompress(before.L), reward), 'L += 61500·G');
    for (let i = 0; i < 3; i++) await mineBlock(test);
    t.equal(chain.top.height, 4n);
    t.equal(chain.metaAtTopo(2n)!.height, 2n);
  },
);

t.test('invalid blocks are rejected with clear reasons and change nothing', async (t) => {
  const test = await openTestChain();
  const { chain } = test;
  await mineBlock(test);
  const good = await nextBlock(test);
  const topBefore = chain.top;
  const reject = async (block: Block, reason: RegExp, label: string) => {
    await t.rejects(chain.addBlock(encodeBlock(block)), { name: 'BlockRejected', message: reason }, label);
    t.same(chain.top, topBefore, `${label}: the chain did not move`);
  };
  await reject({ ...good, height: good.height + 1n }, /wrong height/, 'wrong height');
  await reject({ ...good, timestamp: topBefore.timestamp - 1n }, /before its tip/, 'timestamp before the tip');
  await reject({ ...good, timestamp: test.clock.now + 60_000n }, /in the future/, 'timestamp in the future');
  await reject(
    { ...good, stateRoot: new Uint8Array(32).fill(7) },
    /final miniblock does not commit|wrong state root/,
    'wrong state root',
  );
  await reject({ ...good, miniblocks: good.miniblocks.slice(0, 9) }, /needs 10 miniblocks/, 'missing miniblock');
  await reject(
    { ...good, miniblocks: [good.miniblocks[0]!, ...good.miniblocks.slice(0, 8), good.miniblocks[9]!] },
    /duplicate/,
    'duplicate miniblock',
  );
  await reject(
    { ...good, tips: [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)] },
    /tip count 2 exceeds the limit of 1/,
    'two tips',
  );
  await reject({ ...good, tips: [] }, /exactly one tip/, 'no tip');
  await t.rejects(chain.addBlock(new Uint8Array([1, 2, 3])), { name: 'BlockRejected', message: /malformed block/ });
  const accepted = await chain.addBlock(encodeBlock(good));
  t.equal(accepted.status, 'main', 'the untouched block is accepted');
  await t.rejects(chain.addBlock(encodeBlock(good)), { message: /already known/ }, 'duplicate block');
  t.ok(new BlockRejected(BlockErrorCode.Malformed, 'x') instanceof Error);
});

t.test(
  "a block mined from the last template commits the template's state; a transaction body that changed since is executed anew",
  async (t) => {
    const test = await openTestChain();
    const { chain } = test;
    const [alice] = await registeredAccounts(test, 1);
    const built = buildTestTransfer(test, premineAccount(test), alice!.key, 1000n, { fee: 100n });
    test.pool.add(built.bytes);
    const good = await nextBlock(test);
    t.same(good.txHashes, [built.txid], 'the template holds the transfer');
    let overlays = 0;
    const write = test.accounts.write.bind(test.accounts);
    test.accounts.write = (version) => {
      overlays++;
      return write(version);
    };
    // The same id with another proof: the block lists it, but what it would execute is not what the template did.
    const tampered = Uint8Array.from(built.bytes);
    tampered[tampered.length - 1]! ^= 1;
    let lent: Uint8Array | undefined = tampered;
    test.pool.remove(built.txid);
    chain.addTransactionSource((id) => (toHex(id) === toHex(built.txid) ? lent : undefined));
    await t.rejects(chain.addBlock(encodeBlock(good)), { code: BlockErrorCode.BadTransaction });
    t.equal(overlays, 1, 'the block with the changed body was executed');
    lent = built.bytes;
    t.equal((await chain.addBlock(encodeBlock(good))).status, 'main');
    t.equal(overlays, 1, "the block with the template's bodies was not executed again");
    t.same(chain.top.stateRoot, good.stateRoot);
    t.same(test.accounts.read(chain.top.stateVersion).root(), good.stateRoot, 'its committed state is readable');
    t.same(chain.storedTransaction(built.txid), built.bytes, 'and its transaction stored');
  },
);

t.test('a rejection carries the code of the broken rule', async (t) => {
  const test = await openTestChain();
  const { chain } = test;
  await mineBlock(test);
  const good = await nextBlock(test);
  await t.rejects(chain.addBlock(encodeBlock({ ...good, height: good.height + 1n })), {
    code: BlockErrorCode.WrongHeight,
  });
  await t.rejects(chain.addBlock(encodeBlock({ ...good, timestamp: test.clock.now + 60_000n })), {
    code: BlockErrorCode.TimestampInFuture,
  });
  await t.rejects(chain.addBlock(encodeBlock({ ...good, miniblocks: good.miniblocks.slice(0, 9) })), {
    code: BlockErrorCode.MiniblockCount,
  });
  await t.rejects(chain.addBlock(new Uint8Array([1, 2, 3])), { code: BlockErrorCode.Malformed });
  // A transaction the block lists but nobody has: the block is rejected because of it, with the transaction's own code.
  const unknown = new Uint8Array(32).fill(9);
  const error = t.throws(() => chain.computeStateRoot({ ...good, txHashes: [unknown] }), {
    code: BlockErrorCode.BadTransaction,
    reason: { code: TransactionErrorCode.Unavailable },
    message: `transaction ${toHex(unknown)}: unknown to this node`,
  });
  t.ok(error instanceof TransactionRejected);
  await chain.addBlock(encodeBlock(good));
  await t.rejects(chain.addBlock(encodeBlock(good)), { code: BlockErrorCode.AlreadyKnown });
});

t.test(
  'a heavier competing branch reorganises the chain; state follows; nothing below the stable height moves',
  async (t) => {
    const a = await openTestChain();
    const b = await openTestChain();
    t.same(a.chain.top.id, b.chain.top.id, 'same genesis');
    await mineBlock(a);
    await mineBlock(a);
    for (let i = 0; i < 3; i++) await mineBlock(b);
    const oldTop = a.chain.top;
    a.clock.now = b.clock.now;
    for (let h = 1n; h <= b.chain.top.height; h++) {
      const bytes = b.chain.blocks.getBlockBytes(b.chain.metaAtTopo(h)!.id)!;
      await a.chain.addBlock(bytes).catch((error: Error) => t.match(error.message, /already known/));
    }
    t.same(a.chain.top.id, b.chain.top.id, 'a follows the heavier branch');
    t.same(a.chain.top.stateRoot, b.chain.top.stateRoot, 'identical state roots');
    t.equal(a.chain.topoOf(oldTop), null, 'the old top is now a side block');
    t.ok(a.chain.meta(oldTop.id), 'and it is still stored');
  },
);

t.test(
  'rewindTo makes a main-chain block the top again, below the stable height too; the chain goes on from it',
  async (t) => {
    const test = await openTestChain();
    const { chain } = test;
    await mineBlock(test);
    const snapshot = chain.top;
    const premineBalance = chain.balance(NATIVE_ASSET, test.premine);
    for (let i = 0; i < 15; i++) await mineBlock(test);
    const abandoned = chain.top;
    const heard: string[] = [];
    chain.onBlock((meta, outcome) =>
      heard.push(`${meta.height} ${outcome.status} ${outcome.status === 'main' && outcome.previousTop?.height}`),
    );
    t.same((await chain.rewindTo(snapshot.id)).id, snapshot.id);
    t.same(chain.top.id, snapshot.id);
    t.same(chain.balance(NATIVE_ASSET, test.premine), premineBalance, "the state is the snapshot block's");
    t.equal(chain.metaAtTopo(snapshot.height + 1n), undefined, 'nothing above it on the main chain');
    t.equal(chain.topoOf(abandoned), null);
    t.same(heard, ['1 main 16'], 'listeners hear of it as a reorganisation');
    await t.rejects(chain.rewindTo(abandoned.id), /not on the main chain/);
    await mineBlock(test);
    t.equal(chain.top.height, snapshot.height + 1n, 'a new block extends it');
  },
);

t.test(
  'a main-chain change whose batch fails while it is filled leaves the balance index learning as before',
  async (t) => {
    /** Counts the store's multi-gets: the balance index reads latest balances with them. */
    class CountingStore extends MemoryStore {
      multiGets = 0;
      override getManySync(keys: Uint8Array[]): (Uint8Array | undefined)[] {
        this.multiGets++;
        return super.getManySync(keys);
      }
    }
    const store = new CountingStore();
    const test = await openTestChain({ store });
    const { chain } = test;
    const account = (await registeredAccounts(test, 1))[0]!.key;
    for (let i = 0; i < 3; i++) await mineBlock(test);
    // Rewinding two blocks collects the balances each wrote: the second collection fails, after the first was queued.
    const { balancesChanged } = test.accounts;
    let collections = 0;
    test.accounts.balancesChanged = (version, base) => {
      if (++collections === 2) throw new Error('the disk failed');
      return balancesChanged.call(test.accounts, version, base);
    };
    await t.rejects(chain.rewindTo(chain.metaAtTopo(chain.top.height - 2n)!.id), /the disk failed/);
    test.accounts.balancesChanged = balancesChanged;
    t.equal(chain.top.height, 4n, 'nothing changed');
    // A block rewarding an account, then taken off the main chain: the index forgets what it knew of that account.
    await mineBlock(test, account);
    await chain.rewindTo(chain.metaAtTopo(chain.top.height - 1n)!.id);
    const first = chain.stateAt().getBalance(NATIVE_ASSET, account);
    t.same(first, test.accounts.read(chain.top.stateVersion).getBalance(NATIVE_ASSET, account), "the trie's balance");
    const reads = store.multiGets;
    t.same(chain.stateAt().getBalance(NATIVE_ASSET, account), first);
    t.equal(store.multiGets, reads, 'the first read of the top taught the index: the second is answered from memory');
  },
);

t.test('the chain survives a restart on RocksDB', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'umbra-chain-'));
  const store = await RocksDbStore.open(dir);
  const first = await openTestChain({ store });
  for (let i = 0; i < 3; i++) await mineBlock(first);
  const top = first.chain.top;
  await store.close();
  const reopened = await openTestChain({ store: await RocksDbStore.open(dir) });
  reopened.clock.now = first.clock.now;
  t.same(reopened.chain.top, top, 'same top after reopening');
  t.same(reopened.accounts.read(top.stateVersion).root(), top.stateRoot, 'state readable');
  await mineBlock(reopened);
  t.equal(reopened.chain.top.height, 4n, 'and it keeps growing');
});

t.test('a heavier branch forking below the stable height cannot take over', async (t) => {
  const a = await openTestChain();
  const b = await openTestChain();
  for (let i = 0; i < 12; i++) await mineBlock(a);
  for (let i = 0; i < 13; i++) await mineBlock(b);
  a.clock.now = b.clock.now;
  const top = a.chain.top;
  t.equal(a.chain.stableHeight(), 4n);
  const outcomes: string[] = [];
  for (let h = 1n; h <= b.chain.top.height; h++) {
    const bytes = b.chain.blocks.getBlockBytes(b.chain.metaAtTopo(h)!.id)!;
    outcomes.push(
      await a.chain.addBlock(bytes).then(
        (o) => o.status,
        (error: Error) => `rejected: ${error.message}`,
      ),
    );
  }
  t.same(a.chain.top, top, 'the main chain did not move');
  t.match(
    outcomes.slice(0, 4),
    [1, 2, 3, 4].map((h) => new RegExp(`block at height ${h} is at or below the stable height 4`)),
    'its blocks up to the stable height are refused outright, whether their parent is known or not',
  );
  t.ok(
    outcomes.slice(4).every((o) => o === 'orphan'),
    'the rest wait as orphans for a parent that will never be accepted',
  );
  t.equal(a.chain.orphanBlocks, 9);
});

t.test(
  'the documented premine keys and addresses (docs/protocol.md, README) are the ones the code derives',
  async (t) => {
    const { core } = await openTestChain();
    const documented = {
      testnet: [
        'fb5f89115cf5cb82aadc8d8ba32343add796d9edb320b97ddb1c5d29d629825e',
        'umbt1qyvrmghsg8dnejh539wc5q20xyqvyj4p4s2cf7d7uwt6jcyvphfg5qqatdlcl',
      ],
      simulator: [
        'e50eac452aa9b6d12617f71ed8f151adcc5e89128c9aa841614d711ade12e2c7',
        'umbt1qyk9nk20na7mgu6whzp8tnj2jk725dtspwzctg833v937jzqvn6suqghty4ql',
      ],
    } as const;
    for (const [network, [secret, address]] of Object.entries(documented) as [
      'testnet' | 'simulator',
      readonly [string, string],
    ][]) {
      t.equal(toHex(premineSecret(core, network)), secret, `${network} secret`);
      t.equal(encodeAddress(network, premineKey(core, network)), address, `${network} address`);
    }
  },
);

t.test(
  'a failing block listener is logged; the block stays committed and the other listeners still hear of it',
  async (t) => {
    const lines: string[] = [];
    const test = await openTestChain({ logger: createLogger('error', (line) => lines.push(line)) });
    const heard: bigint[] = [];
    test.chain.onBlock(() => {
      throw new Error('the listener broke');
    });
    test.chain.onBlock((meta) => heard.push(meta.height));
    const blid = await mineBlock(test);
    t.equal(toHex(test.chain.top.id), blid, 'the block is the new top');
    t.same(heard, [1n], 'the next listener heard of it');
    t.match(lines.join('\n'), new RegExp(`ERROR .*a listener failed on block ${blid}: Error: the listener broke`));
    const outcome = await test.chain.addBlock(encodeBlock(await nextBlock(test)));
    t.equal(outcome.status, 'main', 'addBlock resolves with the outcome');
    t.same(heard, [1n, 2n]);
  },
);

const bytesAt = (test: TestChain, height: bigint): Uint8Array =>
  test.chain.blocks.getBlockBytes(test.chain.metaAtTopo(height)!.id)!;

/** `bytes` (a block) made to name another tip, its miniblocks pointing at that tip as well: only its work is wrong. */
function retargeted(bytes: Uint8Array, tip: Uint8Array): Uint8Array {
  const block = decodeBlock(bytes);
  const past: [number, number] = [pastOf(tip), 0];
  return encodeBlock({ ...block, tips: [tip], miniblocks: block.miniblocks.map((mb) => ({ ...mb, past })) });
}

t.test(
  'orphans: 300 junk blocks are refused before they are kept; real blocks ahead of their parent wait, join when it comes, and SubmitBlock says they wait',
  async (t) => {
    const honest = await openTestChain({ network: 'testnet' });
    const node = await openTestChain({ network: 'testnet' });
    const other = await openTestChain({ network: 'simulator' });
    for (let i = 0; i < 3; i++) await mineBlock(honest);
    for (let i = 0; i < 3; i++) await mineBlock(other);
    node.clock.now = other.clock.now;

    t.equal((await node.chain.addBlock(bytesAt(honest, 3n), 'honest peer')).status, 'orphan', 'kept before the junk');
    // Simulator blocks sent to a testnet node, each naming a different unknown tip, from as many sources: they pass
    // every check but the proof of work of their miniblocks at the testnet's minimum difficulty.
    const refusals = new Map<string, number>();
    for (let n = 0; n < 300; n++) {
      const junk = retargeted(bytesAt(other, BigInt(1 + (n % 3))), randomBytes(32));
      await node.chain.addBlock(junk, `junk peer ${n}`).then(
        () => t.fail(`junk block ${n} was kept`),
        (error: BlockRejected) => refusals.set(error.code, (refusals.get(error.code) ?? 0) + 1),
      );
    }
    t.same([...refusals], [[BlockErrorCode.BadPow, 300]], 'every junk block is refused for its proof of work');
    // Junk that is not even for this height's tip fails the miniblock checks.
    await t.rejects(node.chain.addBlock(encodeBlock({ ...decodeBlock(bytesAt(other, 1n)), tips: [randomBytes(32)] })), {
      code: BlockErrorCode.MiniblockTip,
    });
    t.equal(node.chain.orphanBlocks, 1, 'only the real orphan is kept');

    await t.rejects(node.mining.submitBlock(bytesAt(honest, 2n)), {
      code: 'miniblock.block-waits-for-parent',
      message: /is not in the chain: its parent is unknown here; it is kept for 10 minutes/,
    });
    t.equal(node.chain.orphanBlocks, 2, 'a real block ahead of its parent waits');
    t.match(await node.mining.submitBlock(bytesAt(honest, 1n)), { status: 'OK', outcome: 'main', block_found: true });
    t.same(node.chain.top, honest.chain.top, 'the parent came, and the waiting blocks followed it');
    t.equal(node.chain.orphanBlocks, 0);
  },
);

t.test(
  'orphans: the transaction bodies that came with an orphan are kept with it until its parent comes',
  async (t) => {
    const honest = await openTestChain();
    await mineBlock(honest);
    await registeredAccounts(honest, 1);
    const block = honest.chain.block(honest.chain.top.id)!;
    t.equal(block.txHashes.length, 1, 'block 2 carries a registration');
    const node = await openTestChain();
    node.clock.now = honest.clock.now;
    // The bodies a peer sends with a block are lent to the chain only while it takes the block.
    const lent = new Map<string, Uint8Array>();
    node.chain.addTransactionSource((txid) => lent.get(toHex(txid)));
    lent.set(toHex(block.txHashes[0]!), honest.chain.storedTransaction(block.txHashes[0]!)!);
    t.equal((await node.chain.addBlock(bytesAt(honest, 2n), 'peer a')).status, 'orphan');
    lent.clear();
    await node.chain.addBlock(bytesAt(honest, 1n), 'peer a');
    t.same(node.chain.top, honest.chain.top, 'block 2 joined with the registration it came with');
    t.ok(node.chain.storedTransaction(block.txHashes[0]!), 'and the registration is stored');
  },
);

t.test('orphans: one source holds at most 32; they expire after 10 minutes', async (t) => {
  const honest = await openTestChain();
  for (let i = 0; i < MAX_ORPHANS_PER_SOURCE + 2; i++) await mineBlock(honest);
  const node = await openTestChain();
  node.clock.now = honest.clock.now;
  for (let h = 2n; h <= honest.chain.top.height; h++) await node.chain.addBlock(bytesAt(honest, h), 'peer a');
  t.equal(node.chain.orphanBlocks, MAX_ORPHANS_PER_SOURCE, 'the oldest gave way to the newest');
  await node.chain.addBlock(bytesAt(honest, 1n), 'peer b');
  t.equal(node.chain.top.height, 1n, 'the orphan that waited for block 1 gave way: nothing follows it');
  t.equal(node.chain.orphanBlocks, MAX_ORPHANS_PER_SOURCE);

  node.clock.now += BigInt(ORPHAN_TTL_MS) + 1n;
  t.equal(node.chain.orphanBlocks, 0, 'all expired');
  await node.chain.addBlock(bytesAt(honest, 2n), 'peer b');
  t.equal(node.chain.top.height, 2n, 'block 3 expired before its parent came');
});

t.test('orphans: a block at or below the stable height is refused even when its parent is unknown', async (t) => {
  const test = await openTestChain();
  for (let i = 0; i < 10; i++) await mineBlock(test);
  const low = retargeted(bytesAt(test, 1n), randomBytes(32));
  await t.rejects(test.chain.addBlock(low, 'peer a'), { code: BlockErrorCode.BelowStableHeight });
  t.equal(test.chain.orphanBlocks, 0);
});
