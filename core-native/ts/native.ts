/**
 * Finds and loads the compiled addon (core-native/umbra-core.<platform>.node, built by `sh core-native/build.sh`)
 * and assembles the native Core from the per-area wrappers in native/. Works from the sources and from dist/:
 * the addon is looked up relative to the repository root, not to this file.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CipherCore } from './cipher.js';
import type { Core } from './core.js';
import type { RegistrationPowCore } from './registration-pow.js';
import { type BalanceAddon, nativeBalance } from './native/balance.js';
import { nativeCipher } from './native/cipher.js';
import { type CurveAddon, nativeCurve } from './native/curve.js';
import { type HashAddon, nativeHash } from './native/hash.js';
import { nativePow, type PowAddon } from './native/pow.js';
import { nativeRegistrationPow } from './native/registration-pow.js';

/** The addon's measuring loops (bench crypto's dudect, a test): n durations in ns of P·scalars[i], n f64 LE. */
interface TimingAddon {
  g1MulTimings(point: Uint8Array, scalars: Uint8Array): Uint8Array;
  g1MulSecretTimings(point: Uint8Array, scalars: Uint8Array): Uint8Array;
}

/**
 * The addon's exports, as each area wrapper declares the functions it needs. An addon built from older sources may
 * lack some: nativeCore names those the Core needs.
 */
export interface Addon
  extends HashAddon,
    CurveAddon,
    CipherCore,
    BalanceAddon,
    PowAddon,
    RegistrationPowCore,
    TimingAddon {}

export type AddonLoad = { ok: true; addon: Addon; path: string } | { ok: false; reason: string };

/** The core-native/ directory of this checkout: the first ancestor of this file holding core-native/Cargo.toml. */
function coreNativeDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'core-native', 'Cargo.toml'))) return join(dir, 'core-native');
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The addon file for this platform and architecture (napi names it e.g. umbra-core.linux-x64-gnu.node). */
export function findAddon(): string | undefined {
  const dir = coreNativeDir();
  if (!dir) return undefined;
  const prefix = `umbra-core.${process.platform}-${process.arch}`;
  const file = readdirSync(dir).find(
    (name) => (name === `${prefix}.node` || name.startsWith(`${prefix}-`)) && name.endsWith('.node'),
  );
  return file && join(dir, file);
}

let cached: AddonLoad | undefined;

/** Loads the addon once; on failure says why (not built, or failed to load). */
export function loadAddon(): AddonLoad {
  if (cached) return cached;
  const path = findAddon();
  if (!path) {
    cached = {
      ok: false,
      reason: `native addon not built for ${process.platform}-${process.arch} (run \`make\`; needs cargo)`,
    };
    return cached;
  }
  try {
    cached = { ok: true, addon: createRequire(import.meta.url)(path) as Addon, path };
  } catch (error) {
    cached = { ok: false, reason: `native addon ${path} failed to load: ${(error as Error).message}` };
  }
  return cached;
}

/** The native Core; throws when the addon lacks a function the wrappers expect (built from older sources). */
export function nativeCore(addon: Addon): Core {
  const core: Core = {
    impl: 'native',
    ...nativeHash(addon),
    ...nativeCurve(addon),
    ...nativeCipher(addon),
    ...nativeBalance(addon),
    ...nativePow(addon),
    ...nativeRegistrationPow(addon),
  };
  const missing = Object.entries(core)
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (missing.length > 0) throw new Error(`native addon is out of date (missing ${missing.join(', ')}); run \`make\``);
  return core;
}
