/** Hash functions every part of the protocol uses. All return a fresh 32-byte digest. */
export interface HashCore {
  /** Keccak-256 with the legacy (0x01) padding, as Ethereum uses: txid, proof challenges, hash-to-point. */
  keccak256(data: Uint8Array): Uint8Array;
  /** FIPS-202 SHA3-256: block and miniblock ids. */
  sha3_256(data: Uint8Array): Uint8Array;
  /** Unkeyed BLAKE2s-256: state-tree key and node hashing. */
  blake2s256(data: Uint8Array): Uint8Array;
  /**
   * BLAKE2s-256 of many messages laid end to end in `data` in one call: message i is `data[ends[i-1]..ends[i]]` (the
   * first starts at 0); returns the digests end to end (32 bytes each). Throws if `ends` decreases or passes the data.
   */
  blake2s256Many(data: Uint8Array, ends: Uint32Array): Uint8Array;
  /** SHA-256. */
  sha256(data: Uint8Array): Uint8Array;
}
