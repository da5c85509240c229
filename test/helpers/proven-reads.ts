/**
 * A real chain for proven-read tests: 41 accounts, blocks mined by one of them, and transfers in a few blocks only,
 * so some balance ranges change in some blocks and stay put in others; with the daemon's proof methods over it, the
 * state roots a client would have verified, and each range's content read straight from the state.
 */
import { toHex } from '../../protocol/bytes.js';
import { inRange, type KeyRange } from '../../protocol/state/range-check.js';
import type { ProofRpcDeps } from '../../plugins/consensus/rpc/proof-methods.js';
import { trieName } from '../../protocol/state/trie-names.js';
import { mineBlock, openTestChain, type TestChain } from './chain.js';
import { buildTestTransfer, premineAccount, premineBalance, registeredAccounts, type Account } from './transfers.js';

export const NATIVE_BALANCES = trieName('B', new Uint8Array(32));

export interface ProvenReadsChain {
  test: TestChain;
  deps: ProofRpcDeps;
  /** The state root of every block, by topoheight, as a client's verified headers give them. */
  stateRoots: Map<bigint, Uint8Array>;
  /** The topoheights of the blocks that carry a transfer. */
  transferBlocks: bigint[];
  /** The account that mines every block after the registrations (its balance changes in each). */
  miner: Account;
  accounts: Account[];
}

/** Block 1 registers 40 accounts; blocks 2 … 13 are mined by the first, with a ring-4 transfer in blocks 4 and 9. */
export async function openProvenReadsChain(): Promise<ProvenReadsChain> {
  const test = await openTestChain();
  const accounts = await registeredAccounts(test, 40);
  const miner = accounts[0]!;
  const premine = premineAccount(test);
  // The premine mined block 1 alone, and pays 1500 per transfer.
  let premineHolds = premineBalance(test);
  const transferBlocks: bigint[] = [];
  for (let height = 2n; height <= 13n; height++) {
    if (height === 4n || height === 9n) {
      const to = accounts[height === 4n ? 5 : 17]!;
      const options = { fee: 500n, ringSize: 4, senderBalance: premineHolds };
      test.pool.add(buildTestTransfer(test, premine, to.key, 1000n, options).bytes);
      premineHolds -= 1500n;
      transferBlocks.push(height);
    }
    await mineBlock(test, miner.key);
  }
  const stateRoots = new Map<bigint, Uint8Array>();
  for (let topoheight = 0n; topoheight <= test.chain.top.height; topoheight++)
    stateRoots.set(topoheight, test.chain.metaAtTopo(topoheight)!.stateRoot);
  return {
    test,
    deps: { chain: test.chain, nodes: test.accounts.db.persisted },
    stateRoots,
    transferBlocks,
    miner,
    accounts,
  };
}

/** The (key, value) pairs of a range at a topoheight, as hex, in key-hash order: read from the state, not proven. */
export function rangeContent(chain: ProvenReadsChain, trie: Uint8Array, range: KeyRange, topoheight: bigint) {
  const { test } = chain;
  const hash = (data: Uint8Array) => test.core.blake2s256(data);
  const version = test.chain.metaAtTopo(topoheight)!.stateVersion;
  return [...test.accounts.db.snapshot(version).tree(trie).entries()]
    .filter((leaf) => inRange(hash(leaf.key), range))
    .sort((a, b) => Buffer.compare(a.keyhash, b.keyhash))
    .map((leaf) => ({ key: toHex(leaf.key), value: toHex(leaf.value) }));
}

/** The topoheights in (from, to] at which a range's content differs from the block before's. */
export function rangeChanges(chain: ProvenReadsChain, trie: Uint8Array, range: KeyRange, from: bigint, to: bigint) {
  const changes: bigint[] = [];
  for (let topoheight = from + 1n; topoheight <= to; topoheight++)
    if (
      JSON.stringify(rangeContent(chain, trie, range, topoheight)) !==
      JSON.stringify(rangeContent(chain, trie, range, topoheight - 1n))
    )
      changes.push(topoheight);
  return changes;
}

/** The range of `bits` bits that holds a key's hash. */
export function rangeHolding(chain: ProvenReadsChain, key: Uint8Array, bits: number): KeyRange {
  const keyhash = chain.test.core.blake2s256(key);
  const prefix = keyhash.slice(0, Math.ceil(bits / 8));
  if (bits % 8) prefix[prefix.length - 1]! &= 0xff << (8 - (bits % 8));
  return { bits, prefix };
}
