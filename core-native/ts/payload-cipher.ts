/**
 * The per-receiver encrypted payload of a transfer (docs/cryptography.md § Payloads): 145 bytes = the sender's ring
 * index (1 byte) ‖ the encoded RPC arguments zero-padded to 144 bytes, XORed with XChaCha20 under the payload key
 * (`payloadKey` in shared-secret.ts), a 24-byte zero nonce and counter 0. There is no MAC; every receiver key is
 * fresh per transfer because the key depends on the transfer's random r.
 */
import type { Core } from './core.js';

/** Bytes of encoded arguments a payload carries. */
export const PAYLOAD_ARGS_BYTES = 144;
/** Ring index byte plus arguments. */
export const PAYLOAD_BYTES = 1 + PAYLOAD_ARGS_BYTES;
const ZERO_NONCE = new Uint8Array(24);

export interface PayloadPlaintext {
  /** The sender's index in the ring (0…255). */
  senderIndex: number;
  /** The encoded arguments, zero-padded to 144 bytes. */
  args: Uint8Array;
}

/** Packs and encrypts; throws when the arguments exceed 144 bytes or the index is not a byte. */
export function sealPayload(core: Core, key: Uint8Array, senderIndex: number, args: Uint8Array): Uint8Array {
  if (!Number.isInteger(senderIndex) || senderIndex < 0 || senderIndex > 255)
    throw new Error(`sender ring index must be 0…255, got ${senderIndex}`);
  if (args.length > PAYLOAD_ARGS_BYTES)
    throw new Error(`payload arguments are ${args.length} bytes, at most ${PAYLOAD_ARGS_BYTES} fit`);
  const plain = new Uint8Array(PAYLOAD_BYTES);
  plain[0] = senderIndex;
  plain.set(args, 1);
  return core.xchacha20(key, ZERO_NONCE, plain);
}

/** Decrypts a 145-byte payload (a wrong key yields garbage, not an error: the cipher has no MAC). */
export function openPayload(core: Core, key: Uint8Array, payload: Uint8Array): PayloadPlaintext {
  if (payload.length !== PAYLOAD_BYTES)
    throw new Error(`an encrypted payload is ${PAYLOAD_BYTES} bytes, got ${payload.length}`);
  const plain = core.xchacha20(key, ZERO_NONCE, payload);
  return { senderIndex: plain[0]!, args: plain.slice(1) };
}
