/**
 * What block execution needs of the state: encrypted balances per asset, registration lookups, and a commit that
 * produces the new state root. Implemented over the versioned state tree (state/).
 */
import type { NonceBalance } from '../../protocol/nonce-balance.js';
import type { WriteBatch } from '../../host/storage/kv-store.js';
import type { BalanceEntry } from './state/balance-index.js';
import type { ContractsReader, ContractsWriter } from './state-contracts.js';

/** Asset id of the native coin. */
export const NATIVE_ASSET = new Uint8Array(32);

export interface AccountsReader {
  /** The stored balance of `key` (33-byte compressed) for an asset, or undefined when the key is not registered. */
  getBalance(asset: Uint8Array, key: Uint8Array): NonceBalance | undefined;
  /** The balances of many keys, in their order (read together: cheaper than one by one). */
  getBalances(asset: Uint8Array, keys: readonly Uint8Array[]): (NonceBalance | undefined)[];
  /** Depth of the key's leaf in the asset's balance tree (reported as `bits`), or undefined when absent. */
  balanceDepth(asset: Uint8Array, key: Uint8Array): number | undefined;
  /** Every key holding a balance of the asset (registered accounts, for the native coin). */
  balanceKeys(asset: Uint8Array): Uint8Array[];
  /** The registered key whose BLAKE2s key hash starts with `prefix` (miniblock KeyHash), if any. */
  findKeyByHashPrefix(prefix: Uint8Array): Uint8Array | undefined;
  /** The state root (`treehash`). */
  root(): Uint8Array;
  /** Installed contracts: code, variables, balances. */
  readonly contracts: ContractsReader;
}

export interface AccountsWriter extends AccountsReader {
  readonly contracts: ContractsWriter;
  putBalance(asset: Uint8Array, key: Uint8Array, balance: NonceBalance): void;
  /** The balances written so far, each account's last (what the balance index records of the block). */
  balanceWrites(): BalanceEntry[];
  /** Reads ahead, off the main thread, what `commit` will read: call it before a commit where the thread is shared. */
  prefetch(): Promise<void>;
  /** Adds every change to `batch` (written by the caller, atomically with the block) and returns the new version. */
  commit(batch: WriteBatch): { version: bigint; root: Uint8Array };
}

/** Where the balances of a main-chain state are read in one step each (state/balance-index.ts). */
export interface IndexedBalances {
  balanceAt(asset: Uint8Array, key: Uint8Array, topoheight: bigint): Uint8Array | undefined;
  balancesAt(asset: Uint8Array, keys: readonly Uint8Array[], topoheight: bigint): (Uint8Array | undefined)[];
}

/** A main-chain state's place in the balance index: its balances are read there rather than from the tries. */
export interface IndexedAt {
  readonly index: IndexedBalances;
  readonly topoheight: bigint;
}

export interface AccountsState {
  /** The state after the block with this state version (its balances read from the index when `at` says where). */
  read(version: bigint, at?: IndexedAt): AccountsReader;
  /** A writable overlay on a version (null: the empty state before genesis), its base read from the index at `at`. */
  write(baseVersion: bigint | null, at?: IndexedAt): AccountsWriter;
  /** The balances the state at `version` holds that the state at `baseVersion` (null: empty) does not hold alike. */
  balancesChanged(version: bigint, baseVersion: bigint | null): BalanceEntry[];
}
