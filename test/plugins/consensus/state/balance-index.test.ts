/**
 * The balance index against the tries it copies: on random histories (registrations, transfers, rewards to random
 * miners), reorganisations of one to three blocks, pruning and a rebuild after a restart, every balance the index
 * answers for every main-chain state, read alone or with others, is the one the state's trie holds.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import t, { type Test } from 'tap';
import { createLogger } from '../../../../host/logger.js';
import type { KeyValueStore } from '../../../../host/storage/kv-store.js';
import { MemoryStore } from '../../../../host/storage/memory-store.js';
import { RocksDbStore } from '../../../../host/storage/rocksdb-store.js';
import { encodeTransaction } from '../../../../protocol/transaction.js';
import { encodeNonceBalance } from '../../../../protocol/nonce-balance.js';
import { NATIVE_ASSET } from '../../../../plugins/consensus/accounts.js';
import { ChainPruner } from '../../../../plugins/consensus/chain-pruner.js';
import { mineBlock, openTestChain, type TestChain } from '../../../helpers/chain.js';
import { buildTestTransfer, registeredAccounts, type Account } from '../../../helpers/transfers.js';

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const hex = (bytes: Uint8Array | undefined): string | undefined => bytes && Buffer.from(bytes).toString('hex');

/**
 * One random step on `test`'s top: registrations (added to `known`), or a block with or without a transfer, to a
 * random miner among the accounts of `known` registered on this branch.
 */
async function step(test: TestChain, known: Account[]): Promise<void> {
  const accounts = known.filter((account) => test.chain.isRegistered(account.key));
  const roll = Math.random();
  // About a third of the accounts mine, by their key; the others hold nothing, so they send 0 knowing their balance.
  const mines = (account: Account): boolean => account.key[1]! % 3 === 0;
  const miners = accounts.filter(mines);
  const senders = accounts.filter((account) => !mines(account));
  const miner = miners.length > 0 && Math.random() < 0.7 ? pick(miners).key : test.premine;
  if (roll < 0.3 || accounts.length < 4) {
    known.push(...(await registeredAccounts(test, 1 + Math.floor(Math.random() * 3))));
    return;
  }
  if (roll < 0.7 && senders.length > 0) {
    const [from, to] = [pick(senders), pick(accounts)];
    if (from !== to) {
      const transfer = buildTestTransfer(test, from, to.key, 0n, { ringSize: 4, senderBalance: 0n });
      test.pool.add(encodeTransaction(transfer.tx));
    }
  }
  await mineBlock(test, miner);
}

/** Every balance of `keys` at every main-chain height the node holds: the indexed read against the trie's. */
function compare(t: Test, test: TestChain, keys: readonly Uint8Array[], when: string): void {
  const { chain } = test;
  let reads = 0;
  const wrong: string[] = [];
  for (let height = chain.historyFloor(); height <= chain.top.height; height++) {
    const meta = chain.metaAtTopo(height)!;
    const indexed = chain.stateAt(meta);
    const trie = test.accounts.read(meta.stateVersion);
    // Read one by one and all together (a ring's read): each way, an account's balance is the trie's.
    const together = indexed.getBalances(NATIVE_ASSET, keys);
    keys.forEach((key, i) => {
      const fromTrie = trie.getBalance(NATIVE_ASSET, key);
      for (const [how, fromIndex] of [
        ['alone', indexed.getBalance(NATIVE_ASSET, key)],
        ['together', together[i]],
      ] as const) {
        const [a, b] = [fromIndex, fromTrie].map((balance) => hex(balance && encodeNonceBalance(balance)));
        if (a !== b) wrong.push(`${hex(key)} at ${height}, read ${how}: index ${a}, trie ${b}`);
        reads++;
      }
    });
  }
  t.ok(chain.balanceIndex.covers(chain.top.height), `${when}: the index answers for the top`);
  t.same(wrong.slice(0, 5), [], `${when}: ${reads} indexed reads agree with the tries`);
}

/** Gives `to` the blocks of `from`'s main chain above `above` up to `upTo`. */
async function copyChain(from: TestChain, to: TestChain, above: bigint, upTo: bigint): Promise<void> {
  for (let height = above + 1n; height <= upTo; height++) {
    const bytes = from.chain.blocks.getBlockBytes(from.chain.metaAtTopo(height)!.id)!;
    await to.chain.addBlock(bytes);
  }
}

for (const [kind, openStore] of [
  ['memory', (): KeyValueStore => new MemoryStore()],
  ['rocksdb', (): Promise<KeyValueStore> => RocksDbStore.open(mkdtempSync(join(tmpdir(), 'umbra-index-')))],
] as const) {
  t.test(`${kind} store: random histories, reorganisations, pruning and a rebuild`, async (t) => {
    const store = await openStore();
    const node = await openTestChain({ store });
    const accounts: Account[] = [];
    const strangers = [randomBytes(33), node.premine];
    const keys = (): Uint8Array[] => [...strangers, ...accounts.map((a) => a.key)];
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 3; i++) await step(node, accounts);
      compare(t, node, keys(), `round ${round}, after new blocks`);

      // A rival branch from a few blocks back, one block longer, with its own registrations and transfers.
      const depth = BigInt(Math.floor(Math.random() * 3));
      const fork = node.chain.top.height - depth;
      const rival = await openTestChain();
      rival.chain.addTransactionSource((txid) => node.chain.storedTransaction(txid));
      rival.clock.now = node.clock.now;
      await copyChain(node, rival, 0n, fork);
      for (let i = 0n; i <= depth; i++) await step(rival, accounts);
      node.chain.addTransactionSource((txid) => rival.chain.storedTransaction(txid));
      node.clock.now = rival.clock.now;
      await copyChain(rival, node, fork, rival.chain.top.height);
      t.equal(hex(node.chain.top.id), hex(rival.chain.top.id), `round ${round}: the rival branch won`);
      compare(t, node, keys(), `round ${round}, after a reorganisation of ${depth + 1n} blocks`);
    }

    const pruner = new ChainPruner({
      chain: node.chain,
      stateDb: node.accounts.db,
      policy: { depth: () => 4n, pruneBlocks: false },
      logger: createLogger('error'),
    });
    pruner.start();
    await pruner.settled();
    t.ok(node.chain.historyFloor() > 0n, 'the state was pruned');
    t.equal(node.chain.balanceIndex.from, node.chain.historyFloor(), 'the index answers from the history floor');
    compare(t, node, keys(), 'after pruning');
    for (let i = 0; i < 3; i++) await step(node, accounts);
    await pruner.settled();
    await pruner.stop();
    compare(t, node, keys(), 'after pruning and new blocks');

    // Reopened, the node remembers no balance in memory: every read is the store's.
    const restarted = await openTestChain({ store });
    t.equal(restarted.chain.balanceIndex.from, node.chain.balanceIndex.from, 'kept across a restart');
    compare(t, restarted, keys(), 'after a restart');

    // A store whose index has no latest versions (written before they existed) gets it built again on opening, from
    // the top's state; so does one without the index at all.
    const bytes = (text: string) => new TextEncoder().encode(text);
    const withoutLatest = store
      .batch()
      .put(bytes('bF'), (await store.get(bytes('bS')))!)
      .del(bytes('bS'));
    for await (const [key] of store.entries({ prefix: bytes('bl') })) withoutLatest.del(key);
    await withoutLatest.write();
    const reopened = await openTestChain({ store });
    t.equal(reopened.chain.balanceIndex.from, reopened.chain.top.height, 'built at the top');
    compare(t, reopened, keys(), 'after a rebuild');
    await store.close();
  });
}
