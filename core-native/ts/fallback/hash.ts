/** Hashes in pure TypeScript (@noble/hashes). */
import { blake2s } from '@noble/hashes/blake2.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256, sha3_256 } from '@noble/hashes/sha3.js';
import type { HashCore } from '../hash.js';

export const fallbackHash: HashCore = {
  keccak256: (data) => keccak_256(data),
  sha3_256: (data) => sha3_256(data),
  blake2s256: (data) => blake2s(data),
  blake2s256Many: (data, ends) => {
    const out = new Uint8Array(ends.length * 32);
    let start = 0;
    ends.forEach((end, i) => {
      if (end < start || end > data.length)
        throw new RangeError(`ends must not decrease nor pass the data's ${data.length} bytes`);
      out.set(blake2s(data.subarray(start, end)), i * 32);
      start = end;
    });
    return out;
  },
  sha256: (data) => sha256(data),
};
