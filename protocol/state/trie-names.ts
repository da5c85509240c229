/**
 * The names of the state's tries (docs/protocol.md § State), as the meta trie keys them: `B ‖ asset` balances,
 * `C ‖ scid` contract variables, `D ‖ scid` contract balances, `M` contract code. A proven read names one of them.
 */
export type TrieKind = 'balances' | 'contract-variables' | 'contract-balances' | 'contract-code';

/** The name of the trie of every contract's code, `M`. */
export const CONTRACT_CODE_TRIE = Uint8Array.of(0x4d);

const KIND_BY_LETTER: Record<string, TrieKind> = { B: 'balances', C: 'contract-variables', D: 'contract-balances' };

/** What a trie name names, or undefined when the state has no trie of that name. */
export function trieKind(name: Uint8Array): TrieKind | undefined {
  if (name.length === 1 && name[0] === CONTRACT_CODE_TRIE[0]) return 'contract-code';
  return name.length === 33 ? KIND_BY_LETTER[String.fromCharCode(name[0]!)] : undefined;
}

/** How a message names the tries: the forms `trieKind` accepts, in hex. */
export const TRIE_NAME_FORMS =
  '42‖asset (B: balances), 43‖scid (C: contract variables), 44‖scid (D: contract balances) or 4d (M: contract code)';

/** The name of a state trie: its letter (`B` balances, `C` contract variables, `D` contract balances) ‖ a 32-byte id. */
export function trieName(letter: 'B' | 'C' | 'D', id: Uint8Array): Uint8Array {
  const name = new Uint8Array(33);
  name[0] = letter.charCodeAt(0);
  name.set(id, 1);
  return name;
}
