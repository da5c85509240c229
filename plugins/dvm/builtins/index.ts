/** Every built-in, by lower-case name (built-in names match case-insensitively and shadow user functions). */
import { ADDRESS_BUILTINS } from './addresses.js';
import type { Builtin } from './builtin.js';
import { CHAIN_BUILTINS } from './chain.js';
import { MEMORY_BUILTINS } from './memory.js';
import { STORAGE_BUILTINS } from './storage.js';
import { TEXT_BUILTINS } from './text.js';

export const BUILTINS: ReadonlyMap<string, Builtin> = new Map(
  [...STORAGE_BUILTINS, ...MEMORY_BUILTINS, ...CHAIN_BUILTINS, ...ADDRESS_BUILTINS, ...TEXT_BUILTINS].map((b) => [
    b.name.toLowerCase(),
    b,
  ]),
);
