/**
 * Checking a range's history (docs/protocol.md § Proven reads): the topoheights in (from, to] at which one range of a
 * balance trie changed, from a NODE.GetRangeHistory answer, against state roots the client verified itself.
 *
 * The answer is a list of points, each the range's subtree hash at a topoheight proven against that block's state
 * root, from `from` to `to`. Between two adjacent topoheights the range changed exactly when their hashes differ.
 * Points further apart must have equal hashes: then the range did not change in between at all, because a range of a
 * balance trie never returns to an earlier content — accounts are never removed, and every change of a balance
 * credits a positive amount or re-encrypts it with a transfer's fresh randomness — and its hash is a function of
 * its content. So every change lies between two adjacent points, where it shows. Pure: no I/O.
 */
import { equalBytes } from '../bytes.js';
import { rangeHistoryFromJson, type HistoryPoint } from './proof-answers.js';
import { provenRangeHash, type KeyRange } from './range-check.js';
import { checkingRange, checkProvenRead, type StateHashes } from './state-proof.js';
import { StateProofError, StateProofErrorCode } from './state-proof-error.js';
import { trieKind } from './trie-names.js';
import { absentRangeHash, provenTrieRoot } from './trie-root-proof.js';

/** The state roots of the headers the client verified, by topoheight. */
export interface StateRoots {
  get(topoheight: bigint): Uint8Array | undefined;
}

export interface RangeChange {
  topoheight: bigint;
  /** The range's subtree hash after that block. */
  rangeHash: Uint8Array;
}

/** What a history answer proved: every change of the range in (from, to]. */
export interface ProvenHistory {
  from: bigint;
  /** How far the answer reaches; below the `to` asked for when the daemon's bounds cut it short: ask again from here. */
  to: bigint;
  complete: boolean;
  /** The range's subtree hash at `from`. */
  start: Uint8Array;
  changes: RangeChange[];
}

/**
 * Checks a NODE.GetRangeHistory answer (as parsed from JSON) for `range` of the balance trie `trie`, asked for the
 * topoheights `asked`; returns the changes it proves, or throws a StateProofError saying what failed.
 */
export function verifyRangeHistory(
  hashes: StateHashes,
  stateRoots: StateRoots,
  trie: Uint8Array,
  range: KeyRange,
  asked: { from: bigint; to: bigint },
  answer: unknown,
): ProvenHistory {
  checkProvenRead(trie, range);
  if (trieKind(trie) !== 'balances')
    throw new StateProofError(
      StateProofErrorCode.BadRequest,
      'only a range of a balance trie has a provable history (other tries may return to an earlier content)',
    );
  if (asked.from > asked.to)
    throw new StateProofError(StateProofErrorCode.BadRequest, `from (${asked.from}) is above to (${asked.to})`);
  const { from, to, points } = rangeHistoryFromJson(answer);
  const badPoints = (why: string) => new StateProofError(StateProofErrorCode.BadPoints, why);
  if (from !== asked.from) throw badPoints(`the answer starts at topoheight ${from}, not at ${asked.from}`);
  if (to > asked.to) throw badPoints(`the answer reaches topoheight ${to}, beyond the ${asked.to} asked for`);
  if (to === from && asked.to > from) throw badPoints('the answer does not get past its first topoheight');
  if (points[0]?.topoheight !== from || points[points.length - 1]!.topoheight !== to)
    throw badPoints(`the points do not run from topoheight ${from} to ${to}`);
  points.forEach((point, i) => {
    if (i > 0 && point.topoheight <= points[i - 1]!.topoheight)
      throw badPoints(`topoheight ${point.topoheight} follows ${points[i - 1]!.topoheight}: the points must increase`);
  });

  const hash = (data: Uint8Array) => hashes.blake2s256(data);
  const hashAt = (point: HistoryPoint): Uint8Array => {
    const where = `at topoheight ${point.topoheight}`;
    const stateRoot = stateRoots.get(point.topoheight);
    if (!stateRoot) throw new StateProofError(StateProofErrorCode.UnknownStateRoot, `no verified state root ${where}`);
    let trieRoot: ReturnType<typeof provenTrieRoot>;
    try {
      trieRoot = provenTrieRoot(hash, stateRoot, trie, point.meta);
    } catch (error) {
      if (error instanceof StateProofError)
        throw new StateProofError(error.code, `${where}: ${error.message}`, { cause: error });
      throw error;
    }
    if (trieRoot.exists)
      return checkingRange(`the path ${where}`, () => provenRangeHash(hash, trieRoot.root, range, point.path));
    if (point.path.length > 0)
      throw new StateProofError(StateProofErrorCode.BadRange, `a path ${where} in a trie the state does not hold`);
    return absentRangeHash(hash, range);
  };

  const start = hashAt(points[0]!);
  const changes: RangeChange[] = [];
  let previous = { topoheight: from, rangeHash: start };
  for (const point of points.slice(1)) {
    const current = { topoheight: point.topoheight, rangeHash: hashAt(point) };
    const changed = !equalBytes(current.rangeHash, previous.rangeHash);
    if (changed && current.topoheight > previous.topoheight + 1n)
      throw new StateProofError(
        StateProofErrorCode.ChangeLeftOut,
        `the range differs between topoheights ${previous.topoheight} and ${current.topoheight}, which are not ` +
          'adjacent: a change between them is left out',
      );
    if (changed) changes.push(current);
    previous = current;
  }
  return { from, to, complete: to === asked.to, start, changes };
}
