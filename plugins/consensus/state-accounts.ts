/**
 * Accounts over the versioned state: the encrypted balances of asset A live in the trie named `B ‖ A` (32-byte asset
 * id; zeros for the native coin), keyed by the 33-byte compressed public key, valued by the NonceBalance encoding.
 * A main-chain state's balances are read from the balance index when the chain says where (one store read each).
 */
import { trieName } from '../../protocol/state/trie-names.js';
import { decodeNonceBalance, encodeNonceBalance, type NonceBalance } from '../../protocol/nonce-balance.js';
import { cacheKey } from '../../protocol/state/trie-node.js';
import type { WriteBatch } from '../../host/storage/kv-store.js';
import {
  NATIVE_ASSET,
  type AccountsReader,
  type AccountsState,
  type AccountsWriter,
  type IndexedAt,
} from './accounts.js';
import type { BalanceEntry } from './state/balance-index.js';
import { balanceId } from './state/balance-id.js';
import { fillMissing } from './state/missing-reads.js';
import { contractsReader, contractsWriter } from './state-contracts.js';
import type { StateDb, StateSnapshot, TreeReader, TreeWriter, WritableState } from './state/state-db.js';

const NATIVE_BALANCES = trieName('B', NATIVE_ASSET);
const BALANCES_LETTER = NATIVE_BALANCES[0]!;
const isBalanceTrie = (name: Uint8Array): boolean => name.length === 33 && name[0] === BALANCES_LETTER;

/**
 * Balances decoded once per stored value: the balance index hands out the same bytes for an account's latest balance
 * every time it is read, and so do the tries' remembered leaf reads (ring members are read by admission, the pool's
 * re-check, templates and blocks), so their decoding is kept while those bytes live. Nothing changes a decoded
 * balance in place.
 */
const decodedBalances = new WeakMap<Uint8Array, NonceBalance>();

function decodeBalance(bytes: Uint8Array): NonceBalance {
  let balance = decodedBalances.get(bytes);
  if (!balance) {
    balance = decodeNonceBalance(bytes);
    decodedBalances.set(bytes, balance);
  }
  return balance;
}

function reader(view: { tree(name: Uint8Array): TreeReader }, root: () => Uint8Array, at?: IndexedAt): AccountsReader {
  const stored = (asset: Uint8Array, key: Uint8Array): Uint8Array | undefined =>
    at ? at.index.balanceAt(asset, key, at.topoheight) : view.tree(trieName('B', asset)).get(key);
  return {
    getBalance(asset, key) {
      const bytes = stored(asset, key);
      return bytes && decodeBalance(bytes);
    },
    getBalances: (asset, keys) =>
      (at ? at.index.balancesAt(asset, keys, at.topoheight) : view.tree(trieName('B', asset)).getMany(keys)).map(
        (bytes) => bytes && decodeBalance(bytes),
      ),
    balanceDepth: (asset, key) => view.tree(trieName('B', asset)).depth(key),
    balanceKeys: (asset) => [...view.tree(trieName('B', asset)).entries()].map((leaf) => leaf.key),
    findKeyByHashPrefix(prefix) {
      return view.tree(NATIVE_BALANCES).findByKeyHashPrefix(prefix)?.key;
    },
    root,
    contracts: contractsReader(view),
  };
}

export class StateAccounts implements AccountsState {
  constructor(readonly db: StateDb) {}

  snapshot(version: bigint): StateSnapshot {
    return this.db.snapshot(version);
  }

  read(version: bigint, at?: IndexedAt): AccountsReader {
    const snapshot = this.db.snapshot(version);
    return reader(snapshot, () => snapshot.root, at);
  }

  write(baseVersion: bigint | null, at?: IndexedAt): AccountsWriter {
    const state: WritableState = this.db.writable(baseVersion);
    /** Balances written, by balanceId: read back from here, the base from the index or the tries. */
    const written = new Map<string, BalanceEntry & { balance: NonceBalance }>();
    /** The writable balance trie of each asset written, by asset (latin1). */
    const balanceTrees = new Map<string, TreeWriter>();
    let committedRoot: Uint8Array | undefined;
    const base = reader(
      state,
      () => {
        if (!committedRoot) throw new Error('the root of a writable state is known once it is committed');
        return committedRoot;
      },
      at,
    );
    const getBalance = (asset: Uint8Array, key: Uint8Array): NonceBalance | undefined =>
      written.get(balanceId(asset, key))?.balance ?? base.getBalance(asset, key);
    return {
      ...base,
      getBalance,
      getBalances(asset, keys) {
        // What this state did not write, read together from the base.
        return fillMissing(
          keys.map((key) => written.get(balanceId(asset, key))?.balance),
          (missing) =>
            base.getBalances(
              asset,
              missing.map((i) => keys[i]!),
            ),
        );
      },
      contracts: contractsWriter(state),
      putBalance(asset: Uint8Array, key: Uint8Array, balance: NonceBalance) {
        const value = encodeNonceBalance(balance);
        const assetKey = cacheKey(asset);
        written.set(balanceId(asset, key), { asset, key, value, balance });
        let tree = balanceTrees.get(assetKey);
        if (!tree) balanceTrees.set(assetKey, (tree = state.tree(trieName('B', asset))));
        tree.put(key, value);
      },
      balanceWrites: () => [...written.values()].map(({ asset, key, value }) => ({ asset, key, value })),
      prefetch: () => state.prefetch(),
      commit(batch: WriteBatch) {
        const result = state.commit(batch);
        committedRoot = result.root;
        return result;
      },
    };
  }

  balancesChanged(version: bigint, baseVersion: bigint | null): BalanceEntry[] {
    return this.db
      .snapshot(version)
      .changedLeaves(this.db.snapshotOrEmpty(baseVersion), isBalanceTrie)
      .map(({ name, leaf }) => ({ asset: name.subarray(1), key: leaf.key, value: leaf.value }));
  }
}
