/**
 * Entry point of the crypto core: `await loadCore({ impl })`.
 * - `native`: the Rust addon; throws (with the reason) when it is not built or does not load;
 * - `fallback`: pure TypeScript;
 * - `auto` (default): native when the addon loads, else the fallback.
 * `describeCore(core)` gives the one line the daemon logs: which implementation runs and, for the fallback, why.
 * It is async so that an implementation may one day need asynchronous set-up without changing callers.
 */
import type { Core, CoreImpl } from './core.js';
import { loadAddon, nativeCore } from './native.js';

export type { Core, CoreImpl } from './core.js';

export interface LoadCoreOptions {
  impl?: CoreImpl | 'auto';
}

const reasons = new WeakMap<Core, string>();

/**
 * The pure-TypeScript core, imported only when it is used: its curve library (@noble/curves) is code and memory a
 * process on the native core would otherwise load for nothing (docs/operations.md § Memory).
 */
async function loadFallback(): Promise<Core> {
  const { fallbackCore } = await import('./fallback/index.js');
  return fallbackCore();
}

export async function loadCore(options: LoadCoreOptions = {}): Promise<Core> {
  const wanted = options.impl ?? 'auto';
  if (wanted !== 'native' && wanted !== 'fallback' && wanted !== 'auto') {
    throw new Error(`unknown crypto implementation "${String(wanted)}" (expected native, fallback or auto)`);
  }
  if (wanted === 'fallback') {
    const core = await loadFallback();
    reasons.set(core, 'fallback requested');
    return core;
  }
  const load = loadAddon();
  let reason = load.ok ? '' : load.reason;
  if (load.ok) {
    try {
      const core = nativeCore(load.addon);
      reasons.set(core, `addon ${load.path}`);
      return core;
    } catch (error) {
      reason = (error as Error).message;
    }
  }
  if (wanted === 'native') throw new Error(`crypto implementation "native" requested but ${reason}`);
  const core = await loadFallback();
  reasons.set(core, reason);
  return core;
}

/** E.g. "native (addon /…/umbra-core.linux-x64-gnu.node)" or "fallback (native addon not built …)". */
export function describeCore(core: Core): string {
  const reason = reasons.get(core);
  return reason ? `${core.impl} (${reason})` : core.impl;
}
