/**
 * Accounts over the versioned state: the encrypted balances of asset A live in the trie named `B ‖ A` (32-byte asset
 * id; zeros for the native coin), keyed by the 33-byte compressed public key, valued by the NonceBalance encoding.
 */
import { trieName } from '../../protocol/state/trie-names.js';
import { decodeNonceBalance, encodeNonceBalance, type NonceBalance } from '../../protocol/nonce-balance.js';
import type { WriteBatch } from '../../host/storage/kv-store.js';
import { NATIVE_ASSET, type AccountsReader, type AccountsState, type AccountsWriter } from './accounts.js';
import { contractsReader, contractsWriter } from './state-contracts.js';
import type { StateDb, StateSnapshot, TreeReader, WritableState } from './state/state-db.js';

const NATIVE_BALANCES = trieName('B', NATIVE_ASSET);

function reader(view: { tree(name: Uint8Array): TreeReader }, root: () => Uint8Array): AccountsReader {
  return {
    getBalance(asset, key) {
      const bytes = view.tree(trieName('B', asset)).get(key);
      return bytes && decodeNonceBalance(bytes);
    },
    getBalances: (asset, keys) =>
      view
        .tree(trieName('B', asset))
        .getMany(keys)
        .map((bytes) => bytes && decodeNonceBalance(bytes)),
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

  read(version: bigint): AccountsReader {
    const snapshot = this.db.snapshot(version);
    return reader(snapshot, () => snapshot.root);
  }

  write(baseVersion: bigint | null): AccountsWriter {
    const state: WritableState = this.db.writable(baseVersion);
    let committedRoot: Uint8Array | undefined;
    return {
      ...reader(state, () => {
        if (!committedRoot) throw new Error('the root of a writable state is known once it is committed');
        return committedRoot;
      }),
      contracts: contractsWriter(state),
      putBalance(asset: Uint8Array, key: Uint8Array, balance: NonceBalance) {
        state.tree(trieName('B', asset)).put(key, encodeNonceBalance(balance));
      },
      commit(batch: WriteBatch) {
        const result = state.commit(batch);
        committedRoot = result.root;
        return result;
      },
    };
  }
}
