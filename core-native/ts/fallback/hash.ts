/** Hashes in pure TypeScript (@noble/hashes). */
import { blake2s } from '@noble/hashes/blake2.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256, sha3_256 } from '@noble/hashes/sha3.js';
import type { HashCore } from '../hash.js';

export const fallbackHash: HashCore = {
  keccak256: (data) => keccak_256(data),
  sha3_256: (data) => sha3_256(data),
  blake2s256: (data) => blake2s(data),
  sha256: (data) => sha256(data),
};
