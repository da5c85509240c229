/**
 * Contracts over the versioned state (docs/protocol.md § State; our layout keeps variables and balances apart so that no
 * variable key can ever alias a balance):
 *   trie `C ‖ scid`  serialised variable key → serialised value
 *   trie `D ‖ scid`  32-byte asset id → 8-byte big-endian balance of the contract
 *   trie `M`         scid → one byte (0 public, 1 private) ‖ the source code in UTF-8; the contract exists iff it is here
 * The code is not a variable (the reference keeps it under the variable "C", which a contract could overwrite).
 * Holders of a contract's own token have encrypted balances in the ordinary balance trie of that asset (`B ‖ scid`).
 */
import { deserializeValue, serializeValue } from '../../protocol/contract-values.js';
import { CONTRACT_CODE_TRIE, trieName } from '../../protocol/state/trie-names.js';
import type { ContractStorage, StorageWrite } from '../../host/services/contract-vm.js';
import type { DvmValue } from '../../protocol/contract-values.js';
import type { TreeReader, TreeWriter } from './state/state-db.js';

const variablesTree = (scid: Uint8Array): Uint8Array => trieName('C', scid);
const balancesTree = (scid: Uint8Array): Uint8Array => trieName('D', scid);

function encodeAmount(amount: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, amount, false);
  return out;
}

const decodeAmount = (bytes: Uint8Array): bigint =>
  new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, false);

export interface ContractsReader {
  exists(scid: Uint8Array): boolean;
  isPrivate(scid: Uint8Array): boolean;
  /** The current source, or undefined when the contract does not exist. */
  code(scid: Uint8Array): string | undefined;
  variable(scid: Uint8Array, key: DvmValue): DvmValue | undefined;
  /** Every variable. */
  variables(scid: Uint8Array): [DvmValue, DvmValue][];
  balance(scid: Uint8Array, asset: Uint8Array): bigint;
  balances(scid: Uint8Array): [Uint8Array, bigint][];
  /** The view a contract call reads through. */
  storage(scid: Uint8Array): ContractStorage;
}

export interface ContractsWriter extends ContractsReader {
  install(scid: Uint8Array, code: string, isPrivate: boolean): void;
  /** Replaces the code of an installed contract (UPDATE_SC_CODE); its variables and balances stay. */
  setCode(scid: Uint8Array, code: string): void;
  apply(scid: Uint8Array, writes: readonly StorageWrite[]): void;
  setBalance(scid: Uint8Array, asset: Uint8Array, amount: bigint): void;
}

type TreeSource<T extends TreeReader> = { tree(name: Uint8Array): T };

export function contractsReader(view: TreeSource<TreeReader>): ContractsReader {
  const reader: ContractsReader = {
    exists: (scid) => view.tree(CONTRACT_CODE_TRIE).get(scid) !== undefined,
    isPrivate: (scid) => view.tree(CONTRACT_CODE_TRIE).get(scid)?.[0] === 1,
    code(scid) {
      const meta = view.tree(CONTRACT_CODE_TRIE).get(scid);
      return meta && Buffer.from(meta.subarray(1)).toString('utf8');
    },
    variable(scid, key) {
      const bytes = view.tree(variablesTree(scid)).get(serializeValue(key));
      return bytes && deserializeValue(bytes);
    },
    variables: (scid) =>
      [...view.tree(variablesTree(scid)).entries()].map((leaf) => [
        deserializeValue(leaf.key),
        deserializeValue(leaf.value),
      ]),
    balance(scid, asset) {
      const bytes = view.tree(balancesTree(scid)).get(asset);
      return bytes ? decodeAmount(bytes) : 0n;
    },
    balances: (scid) =>
      [...view.tree(balancesTree(scid)).entries()].map((leaf) => [leaf.key, decodeAmount(leaf.value)]),
    storage: (scid) => ({
      load: (key) => reader.variable(scid, key),
      balance: (asset) => reader.balance(scid, Buffer.from(asset, 'latin1')),
    }),
  };
  return reader;
}

export function contractsWriter(view: TreeSource<TreeWriter>): ContractsWriter {
  const reader = contractsReader(view);
  return {
    ...reader,
    install(scid, code, isPrivate) {
      view
        .tree(CONTRACT_CODE_TRIE)
        .put(scid, Buffer.concat([Uint8Array.of(isPrivate ? 1 : 0), Buffer.from(code, 'utf8')]));
    },
    setCode(scid, code) {
      const meta = view.tree(CONTRACT_CODE_TRIE).get(scid);
      if (!meta) throw new Error('setCode: no such contract');
      view.tree(CONTRACT_CODE_TRIE).put(scid, Buffer.concat([meta.subarray(0, 1), Buffer.from(code, 'utf8')]));
    },
    apply(scid, writes) {
      const tree = view.tree(variablesTree(scid));
      for (const { key, value } of writes) {
        if (value === undefined) tree.delete(serializeValue(key));
        else tree.put(serializeValue(key), serializeValue(value));
      }
    },
    setBalance(scid, asset, amount) {
      const tree = view.tree(balancesTree(scid));
      if (amount === 0n) tree.delete(asset);
      else tree.put(asset, encodeAmount(amount));
    },
  };
}
