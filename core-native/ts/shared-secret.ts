/**
 * Shared secrets of a transfer (docs/cryptography.md § Payloads): shared(k, P) = K(compressed(k·P)). The sender uses its
 * blinding r and the receiver's key Y; the receiver uses its secret sk and the transfer's D = r·G (sk·D = r·Y).
 * The per-receiver payload key is K(shared ‖ compressed(Y_receiver)).
 */
import type { Core } from './core.js';

/** K(compressed(k·P)); k is secret, so the multiplication is constant-time. */
export function sharedSecret(core: Core, k: Uint8Array, P: Uint8Array): Uint8Array {
  return core.keccak256(core.g1Compress(core.g1MulSecret(P, k)));
}

/** K(shared ‖ compressed(Y_receiver)): the XChaCha20 key of the receiver's payload. */
export function payloadKey(core: Core, shared: Uint8Array, receiver: Uint8Array): Uint8Array {
  if (shared.length !== 32) throw new Error(`a shared secret is 32 bytes, got ${shared.length}`);
  const data = new Uint8Array(32 + 33);
  data.set(shared, 0);
  data.set(core.g1Compress(receiver), 32);
  return core.keccak256(data);
}
