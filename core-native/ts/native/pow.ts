/**
 * AstroBWTv3 from the addon (core-native/src/pow/). The addon writes the 32-byte hash into a buffer the caller
 * passes (`powHashInto(input, out)`): a Node-API crossing costs ~15 ns, creating a Buffer on the Rust side ~0.8 µs.
 */
import type { PowCore } from '../pow.js';

export interface PowAddon {
  powHashInto(input: Uint8Array, out: Uint8Array): void;
}

export function nativePow(addon: Partial<PowAddon>): PowCore {
  const powHashInto = addon.powHashInto;
  return {
    // Left undefined when the addon predates it, so that nativeCore reports the addon as out of date.
    powHash: (powHashInto &&
      ((input: Uint8Array): Uint8Array => {
        const out = new Uint8Array(32);
        powHashInto(input, out);
        return out;
      })) as PowCore['powHash'],
  };
}
