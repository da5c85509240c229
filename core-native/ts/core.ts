/**
 * The one interface of Umbra's hot cryptography. It is implemented twice — natively in Rust (`native.ts` loads the
 * addon) and in pure TypeScript (`fallback/`) — and both must give byte-identical results. Each area of the core
 * declares its own part of the interface in its own file; `Core` is their union. An area joins `Core` here once
 * both of its implementations are assembled (native.ts and fallback/index.ts).
 */
import type { BalanceCore } from './balance.js';
import type { CipherCore } from './cipher.js';
import type { CurveCore } from './curve.js';
import type { HashCore } from './hash.js';
import type { PowCore } from './pow.js';
import type { RegistrationPowCore } from './registration-pow.js';

export type CoreImpl = 'native' | 'fallback';

export interface Core extends HashCore, CurveCore, CipherCore, BalanceCore, PowCore, RegistrationPowCore {
  /** Which implementation this is. */
  readonly impl: CoreImpl;
}
