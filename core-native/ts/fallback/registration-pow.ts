/**
 * The registration grind in TypeScript: the same nonces in the same order as the addon. Commitments come from
 * g1Progression in batches (one field inversion each); each attempt then costs two Keccak hashes and bigint work.
 */
import { bigintFromBytesBE, bigintToBytes32BE } from '../bigint-bytes.js';
import type { CurveCore } from '../curve.js';
import type { HashCore } from '../hash.js';
import { leadingZeroBits, type RegistrationPowCore } from '../registration-pow.js';
import { modN } from '../scalar.js';
import { schnorrChallenge } from '../schnorr.js';

/** Commitments computed per g1Progression call (64 KiB of points). */
const BATCH = 1024;

function checkArguments(
  G: Uint8Array,
  secretKey: Uint8Array,
  nonce: Uint8Array,
  template: Uint8Array,
  powBits: number,
  attempts: number,
  out: Uint8Array,
): void {
  const bytes = (name: string, value: Uint8Array, length?: number): void => {
    if (!(value instanceof Uint8Array)) throw new Error(`${name} must be a Uint8Array`);
    if (length !== undefined && value.length !== length)
      throw new Error(`${name} must be ${length} bytes, got ${value.length}`);
  };
  bytes('G', G, 64);
  bytes('secret key', secretKey, 32);
  bytes('nonce', nonce, 32);
  bytes('registration encoding', template);
  bytes('out', out);
  if (!Number.isSafeInteger(powBits) || powBits < 0) throw new Error('powBits must be a non-negative integer');
  if (!Number.isSafeInteger(attempts) || attempts < 0) throw new Error('attempts must be a non-negative integer');
  if (template.length < 64)
    throw new Error(`the registration encoding must be at least 64 bytes, got ${template.length}`);
  if (G.every((byte) => byte === 0)) throw new Error('G must not be the point at infinity');
  if (powBits > 256) throw new Error(`proof-of-work bits must be at most 256, got ${powBits}`);
  if (out.length !== 64) throw new Error(`the output must be 64 bytes, got ${out.length}`);
}

export function fallbackRegistrationPow(curve: CurveCore, hash: HashCore): RegistrationPowCore {
  return {
    registrationGrind(G, secretKey, nonce, template, powBits, attempts, out) {
      checkArguments(G, secretKey, nonce, template, powBits, attempts, out);
      const Y = curve.g1MulSecret(G, secretKey);
      const sk = modN(bigintFromBytesBE(secretKey));
      let k = modN(bigintFromBytesBE(nonce));
      let start = curve.g1MulSecret(G, nonce);
      const encoded = template.slice();
      const cAt = encoded.length - 64;
      for (let done = 0; done < attempts; ) {
        const count = Math.min(BATCH, attempts - done);
        const commitments = curve.g1Progression(start, G, count);
        for (let i = 0; i < count; i++, k++) {
          const c = schnorrChallenge(hash, Y, commitments.subarray(i * 64, (i + 1) * 64));
          encoded.set(bigintToBytes32BE(c), cAt);
          encoded.set(bigintToBytes32BE(modN(k + c * sk)), cAt + 32);
          if (leadingZeroBits(hash.keccak256(encoded)) >= powBits) {
            out.set(encoded.subarray(cAt));
            return true;
          }
        }
        done += count;
        start = curve.g1Add(commitments.subarray((count - 1) * 64), G);
      }
      return false;
    },
  };
}
