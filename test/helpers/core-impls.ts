/**
 * Runs one test body against every crypto implementation (native, then fallback). Native is skipped, with the
 * reason, only when the addon is not built or does not load.
 */
import type { Test } from 'tap';
import type { Core, CoreImpl } from '../../core-native/ts/core.js';
import { loadCore } from '../../core-native/ts/index.js';
import { loadAddon } from '../../core-native/ts/native.js';

export const IMPLS: readonly CoreImpl[] = ['native', 'fallback'];

/** Why native cannot run here, or undefined when it can. */
export function nativeMissing(): string | undefined {
  const load = loadAddon();
  return load.ok ? undefined : load.reason;
}

export async function forEachCore(t: Test, body: (t: Test, core: Core) => void | Promise<void>): Promise<void> {
  for (const impl of IMPLS) {
    const missing = impl === 'native' ? nativeMissing() : undefined;
    await t.test(impl, { skip: missing && `native skipped: ${missing}` }, async (t) =>
      body(t, await loadCore({ impl })),
    );
  }
}

/** Both implementations, for agreement tests (guard them with `{ skip: nativeMissing() }`). */
export async function bothCores(): Promise<{ native: Core; fallback: Core }> {
  return { native: await loadCore({ impl: 'native' }), fallback: await loadCore({ impl: 'fallback' }) };
}
