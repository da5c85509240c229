/**
 * The name service (docs/rpc.md § NODE.NameToAddress): a contract installed at genesis, without a transaction and without
 * running an initializer, at the reserved SCID 00…01. Its source is examples/contracts/nameservice.bas — part of
 * the consensus rules, since it is in every genesis state. Its privileged key (the only one that may register names
 * shorter than 6 bytes) is stored at genesis under the Uint64 variable 0.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NAME_SERVICE_SCID = Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0));
/** The variable holding the privileged key. */
export const NAME_SERVICE_PRIVILEGED_KEY = 0n;

let source: string | undefined;

/** The name-service source, read once from the repository. */
export function nameServiceSource(): string {
  if (source !== undefined) return source;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'examples', 'contracts', 'nameservice.bas');
    if (existsSync(file)) return (source = readFileSync(file, 'utf8'));
    const parent = dirname(dir);
    if (parent === dir) throw new Error('examples/contracts/nameservice.bas is missing: the genesis state needs it');
    dir = parent;
  }
}
