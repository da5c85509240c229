/**
 * The names the name service (SCID 00…01) gives an account, for the address page. The contract maps each name to its
 * owner's key, so an account's names are found by reading every name: once per top block (names change only with
 * blocks), through NODE.GetSC, kept as owner → names until the top moves.
 */
import { toHex } from '../../protocol/bytes.js';
import { NAME_SERVICE_SCID } from '../../protocol/name-service.js';
import type { ChainService } from '../../host/services/chain.js';
import type { DaemonQuery } from './daemon-queries.js';

/** The names an account owns (its key as hex), sorted. */
export type NamesOf = (key: string) => Promise<string[]>;

/** A 33-byte key, as the hex GetSC shows a String value in. */
const KEY_HEX_LENGTH = 66;

async function readOwners(query: DaemonQuery): Promise<Map<string, string[]>> {
  const { stringkeys } = await query('NODE.GetSC', { scid: toHex(NAME_SERVICE_SCID), code: false, variables: true });
  const owners = new Map<string, string[]>();
  for (const [name, owner] of Object.entries(stringkeys)) {
    if (typeof owner !== 'string' || owner.length !== KEY_HEX_LENGTH) continue;
    const names = owners.get(owner) ?? [];
    names.push(name);
    owners.set(owner, names);
  }
  for (const names of owners.values()) names.sort();
  return owners;
}

export function nameOwners(chain: ChainService, query: DaemonQuery): NamesOf {
  let cached: { top: string; owners: Promise<Map<string, string[]>> } | undefined;
  return async (key) => {
    const top = toHex(chain.top.id);
    if (cached?.top !== top) {
      const owners = readOwners(query);
      cached = { top, owners };
      // A failed read is not kept: the next page tries again.
      owners.catch(() => {
        if (cached?.owners === owners) cached = undefined;
      });
    }
    return (await cached.owners).get(key) ?? [];
  };
}
