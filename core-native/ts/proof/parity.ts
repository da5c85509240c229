/**
 * The parity of the sender's ring index that a transfer proof reveals (docs/protocol.md § Transfer proofs: the prover fixes
 * f[0] = w or f[m] = w), read without verifying the proof — for showing the signer of a mined ring-2 transaction.
 */
import type { Core } from '../core.js';
import { decodeTransferProof } from './serialize.js';
import { TransferTranscript } from './transcript.js';

/** 0 (even) or 1 (odd), or undefined when the proof shows neither (it could not have been accepted). */
export function senderParityOf(
  core: Core,
  txid: Uint8Array,
  proofBytes: Uint8Array,
  ringLog2: number,
): 0 | 1 | undefined {
  const proof = decodeTransferProof(core, proofBytes, ringLog2);
  const transcript = new TransferTranscript(core, txid);
  transcript.indexChallenge(proof);
  const w = transcript.roundChallenge(proof);
  if (proof.f[0] === w) return 1;
  if (proof.f[ringLog2] === w) return 0;
  return undefined;
}
