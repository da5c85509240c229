/** The pure-TypeScript Core: one object assembled from the per-area fallbacks. */
import type { Core } from '../core.js';
import { fallbackBalance } from './balance.js';
import { fallbackCipher } from './cipher.js';
import { fallbackCurve } from './curve.js';
import { fallbackHash } from './hash.js';
import { fallbackPow } from './pow.js';
import { fallbackRegistrationPow } from './registration-pow.js';

export function fallbackCore(): Core {
  const curve = fallbackCurve();
  return {
    impl: 'fallback',
    ...fallbackHash,
    ...curve,
    ...fallbackCipher,
    ...fallbackBalance,
    ...fallbackPow(),
    ...fallbackRegistrationPow(curve, fallbackHash),
  };
}
