/** Hashes from the addon (core-native/src/hash/). */
import type { HashCore } from '../hash.js';

export interface HashAddon extends Omit<HashCore, 'blake2s256Many'> {
  /** Takes the offsets as the bytes of a Uint32Array (native-endian). */
  blake2s256Many(data: Uint8Array, ends: Uint8Array): Uint8Array;
}

export function nativeHash(addon: HashAddon): HashCore {
  return {
    keccak256: addon.keccak256,
    sha3_256: addon.sha3_256,
    blake2s256: addon.blake2s256,
    sha256: addon.sha256,
    blake2s256Many: (data, ends) =>
      addon.blake2s256Many(data, new Uint8Array(ends.buffer, ends.byteOffset, ends.byteLength)),
  };
}
