/**
 * The value an account's encrypted balance is stored as in a balance tree (docs/cryptography.md § Encrypted balances):
 *   uvarint NonceHeight ‖ compressed L ‖ compressed R
 * where (L, R) = (b·G + ρ·Y, ρ·G) and NonceHeight is the height of the last block in which the account may have
 * been the sender of a transfer (the double-spend rule).
 */
import { ByteReader, ByteWriter } from './bytes.js';
import { POINT_BYTES } from './transaction.js';

export interface NonceBalance {
  nonceHeight: bigint;
  /** Compressed L (33 bytes). */
  L: Uint8Array;
  /** Compressed R (33 bytes). */
  R: Uint8Array;
}

export function encodeNonceBalance(balance: NonceBalance): Uint8Array {
  return new ByteWriter()
    .uvarint(balance.nonceHeight)
    .bytes(balance.L, POINT_BYTES)
    .bytes(balance.R, POINT_BYTES)
    .finish();
}

export function decodeNonceBalance(bytes: Uint8Array): NonceBalance {
  const reader = new ByteReader(bytes, 'encrypted balance');
  const balance = {
    nonceHeight: reader.uvarint('nonce height'),
    L: reader.bytes(POINT_BYTES, 'L'),
    R: reader.bytes(POINT_BYTES, 'R'),
  };
  reader.end();
  return balance;
}
