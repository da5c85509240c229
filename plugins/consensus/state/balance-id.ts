/**
 * The map key of an (asset, account) balance in memory: for the native coin (nearly every balance read) the
 * account's bytes as latin1 text alone, else a marker, the asset and the account. The marker, U+0100, is no latin1
 * character, so the two forms never meet; the short one spares building and hashing the asset's 32 characters on
 * every read of a ring.
 */
import { cacheKey } from '../../../protocol/state/trie-node.js';

const TOKEN_MARK = '\u0100';
const ASSET_BYTES = 32;

/** Whether `asset` is the native coin's id, 32 zero bytes. */
function isNative(asset: Uint8Array): boolean {
  if (asset.length !== ASSET_BYTES) return false;
  for (let i = 0; i < ASSET_BYTES; i++) if (asset[i] !== 0) return false;
  return true;
}

export const balanceId = (asset: Uint8Array, key: Uint8Array): string =>
  isNative(asset) ? cacheKey(key) : TOKEN_MARK + cacheKey(asset) + cacheKey(key);
