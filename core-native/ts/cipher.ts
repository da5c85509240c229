/** The per-receiver payload cipher (docs/cryptography.md § Payloads). */
export interface CipherCore {
  /**
   * XChaCha20 (draft-irtf-cfrg-xchacha, block counter from 0): `data` XOR the key stream of (key, nonce), as a new
   * array. Encryption and decryption are the same call. Throws unless key is 32 bytes and nonce 24 bytes.
   */
  xchacha20(key: Uint8Array, nonce: Uint8Array, data: Uint8Array): Uint8Array;
}
