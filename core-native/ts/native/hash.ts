/** Hashes from the addon (core-native/src/hash/). */
import type { HashCore } from '../hash.js';

export function nativeHash(addon: HashCore): HashCore {
  return { keccak256: addon.keccak256, sha3_256: addon.sha3_256, blake2s256: addon.blake2s256, sha256: addon.sha256 };
}
