/**
 * `disk-per-block`: how much the database grows per block of 100 ring-16 transfers, on an archive node and on a node
 * pruning its state (--prune-depth 40). Each block writes what such a block writes: the block, its 100 transactions
 * (the size of a real ring-16 transfer, random bytes as proofs are), and for each transfer the 16 ring members'
 * encrypted balances, on a state of 100 000 accounts. After a warm-up (the prune depth and more), 100 blocks are
 * measured; the growth counted is that of the live data (every key and value the store holds: what RocksDB's
 * compactions converge to, before compression), since deleted keys leave disk only when RocksDB compacts them.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCore, type Core } from '../../core-native/ts/index.js';
import { encodeTransaction } from '../../host/protocol/transaction.js';
import type { KeyValueStore } from '../../host/storage/kv-store.js';
import { RocksDbStore } from '../../host/storage/rocksdb-store.js';
import { ChainStore } from '../../plugins/consensus/chain-store.js';
import { balanceTreeName } from '../../plugins/consensus/state-accounts.js';
import { StateDb } from '../../plugins/consensus/state/state-db.js';
import { StatePruner } from '../../plugins/consensus/state/state-pruner.js';
import { mineBlock, openTestChain } from '../../test/helpers/chain.js';
import { buildTestTransfer, premineAccount, registeredAccounts } from '../../test/helpers/transfers.js';
import type { BenchRow } from '../harness.js';

const ACCOUNTS = 100_000;
const TRANSFERS_PER_BLOCK = 100;
const RING = 16;
const PRUNE_DEPTH = 40n;
const WARM_UP_BLOCKS = 50;
const MEASURED_BLOCKS = 100;
const NATIVE_BALANCES = balanceTreeName(new Uint8Array(32));

/** The sizes of a real block and of a real ring-16 transfer. */
async function realSizes(core: Core): Promise<{ transfer: number; emptyBlock: number }> {
  const chain = await openTestChain({ core });
  const accounts = await registeredAccounts(chain, RING);
  await mineBlock(chain);
  const built = buildTestTransfer(chain, premineAccount(chain), accounts[0]!.key, 1000n, {
    ringSize: RING,
    decoys: accounts.slice(1).map((account) => account.key),
  });
  return { transfer: encodeTransaction(built.tx).length, emptyBlock: chain.chain.top.size };
}

async function liveBytes(store: KeyValueStore): Promise<number> {
  let bytes = 0;
  for await (const [key, value] of store.entries()) bytes += key.length + value.length;
  return bytes;
}

class BlockWriter {
  private height = 0n;
  private readonly blocks: ChainStore;

  constructor(
    private readonly core: Core,
    private readonly store: KeyValueStore,
    private readonly state: StateDb,
    private readonly sizes: { transfer: number; emptyBlock: number },
  ) {
    this.blocks = new ChainStore(store);
  }

  private readonly accountKey = (i: number): Uint8Array =>
    this.core.keccak256(new Uint8Array(new Uint32Array([i]).buffer)).slice(0, 33);

  /** The 100 000 registered accounts, in 100 commits. */
  async register(): Promise<void> {
    for (let chunk = 0; chunk < ACCOUNTS / 1000; chunk++) {
      const latest = this.state.latestVersion();
      const state = this.state.writable(latest < 0n ? null : latest);
      for (let i = 0; i < 1000; i++)
        state.tree(NATIVE_BALANCES).put(this.accountKey(chunk * 1000 + i), randomBytes(67));
      const batch = this.store.batch();
      state.commit(batch);
      await batch.write();
    }
  }

  async block(): Promise<void> {
    const batch = this.store.batch();
    const state = this.state.writable(this.state.latestVersion());
    const txids: Uint8Array[] = [];
    for (let t = 0; t < TRANSFERS_PER_BLOCK; t++) {
      for (let member = 0; member < RING; member++)
        state.tree(NATIVE_BALANCES).put(this.accountKey(Math.floor(Math.random() * ACCOUNTS)), randomBytes(67));
      const txid = randomBytes(32);
      txids.push(txid);
      this.blocks.putTx(batch, txid, randomBytes(this.sizes.transfer));
    }
    const { version, root } = state.commit(batch);
    const blockBytes = randomBytes(this.sizes.emptyBlock + 32 * TRANSFERS_PER_BLOCK);
    const id = this.core.sha3_256(blockBytes);
    const meta = {
      id,
      height: this.height,
      timestamp: this.height * 18_000n,
      difficulty: 1000n,
      cumulativeWork: (this.height + 1n) * 1000n,
      stateVersion: version,
      stateRoot: root,
      size: blockBytes.length,
      txCount: TRANSFERS_PER_BLOCK,
      reward: 0n,
    };
    this.blocks.putBlock(batch, meta, blockBytes);
    this.blocks.setMain(batch, this.height, id, txids);
    this.blocks.setTop(batch, this.height);
    await batch.write();
    this.height++;
  }
}

async function growthPerBlock(core: Core, sizes: { transfer: number; emptyBlock: number }, prune: boolean) {
  const store = await RocksDbStore.open(mkdtempSync(join(tmpdir(), 'umbra-bench-disk-')));
  const state = new StateDb(store, (data) => core.blake2s256(data));
  const writer = new BlockWriter(core, store, state, sizes);
  const pruner = new StatePruner(state);
  const afterBlock = async (): Promise<void> => {
    const keepFrom = state.latestVersion() - PRUNE_DEPTH;
    // A cycle once the floor can rise by a quarter of the depth, as the daemon does (the measured blocks span whole
    // cycles, so the garbage awaiting the next one counts the same at both ends).
    if (prune && keepFrom > 0n && keepFrom % (PRUNE_DEPTH / 4n) === 0n)
      await pruner.prune(keepFrom, (write) => write());
  };
  await writer.register();
  for (let i = 0; i < WARM_UP_BLOCKS; i++) {
    await writer.block();
    await afterBlock();
  }
  const before = await liveBytes(store);
  for (let i = 0; i < MEASURED_BLOCKS; i++) {
    await writer.block();
    await afterBlock();
  }
  const growth = (await liveBytes(store)) - before;
  await store.close();
  return Math.round(growth / MEASURED_BLOCKS);
}

export async function diskPerBlockRows(): Promise<BenchRow[]> {
  const core = await loadCore({ impl: 'native' });
  const sizes = await realSizes(core);
  const rows: BenchRow[] = [];
  for (const impl of ['archive', 'pruned'] as const)
    rows.push({
      case: 'disk-per-block',
      impl,
      unit: 'bytes',
      value: await growthPerBlock(core, sizes, impl === 'pruned'),
    });
  return rows;
}
