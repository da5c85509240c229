/** The pure-TypeScript Core: one object assembled from the per-area fallbacks. */
import type { Core } from '../core.js';
import { fallbackBalance } from './balance.js';
import { fallbackCipher } from './cipher.js';
import { fallbackCurve } from './curve.js';
import { fallbackHash } from './hash.js';
import { fallbackPow } from './pow.js';

export function fallbackCore(): Core {
  return {
    impl: 'fallback',
    ...fallbackHash,
    ...fallbackCurve(),
    ...fallbackCipher,
    ...fallbackBalance,
    ...fallbackPow(),
  };
}
