/**
 * Why a proven read of the state (docs/protocol.md § Proven reads) is refused: an answer that is malformed, proves
 * against another state, leaves something out or proves nothing. A flaw inside a path or chunk comes as the cause
 * (a RangeProofError).
 */
import { UmbraError } from '../../core-native/ts/errors.js';

export const StateProofErrorCode = {
  /** A field missing or of the wrong form (not hex, not an integer, …). */
  MalformedAnswer: 'state-proof.malformed-answer',
  /** A request the verifier cannot check an answer for: a malformed range, a name that is no trie of the state. */
  BadRequest: 'state-proof.bad-request',
  /** The answer says it reads another state than the one the client verified. */
  WrongStateRoot: 'state-proof.wrong-state-root',
  /** The meta-trie path does not prove the trie's root (or its absence). */
  BadTrieRoot: 'state-proof.bad-trie-root',
  /** The range's chunk or path does not prove against the trie's root. */
  BadRange: 'state-proof.bad-range',
  /** A history point at a topoheight whose verified state root the client does not hold. */
  UnknownStateRoot: 'state-proof.unknown-state-root',
  /** History points out of order, or not starting and ending where they must. */
  BadPoints: 'state-proof.bad-points',
  /** Two history points not adjacent whose hashes differ: a change between them was left out. */
  ChangeLeftOut: 'state-proof.change-left-out',
  /** A key looked up in a proven range that does not cover it, or in a range that was split. */
  KeyNotCovered: 'state-proof.key-not-covered',
} as const;
export type StateProofErrorCode = (typeof StateProofErrorCode)[keyof typeof StateProofErrorCode];

export class StateProofError extends UmbraError<StateProofErrorCode> {
  override readonly name = 'StateProofError';
}
