/**
 * The map key of an (asset, account) balance in memory: for the native coin (nearly every balance read) the
 * account's bytes as latin1 text alone, else a marker, the asset and the account. The marker, U+0100, is no latin1
 * character, so the two forms never meet; the short one spares building and hashing the asset's 32 characters on
 * every read of a ring.
 */
import { equalBytes } from '../../../protocol/bytes.js';
import { cacheKey } from '../../../protocol/state/trie-node.js';
import { NATIVE_SCID } from '../../../protocol/transfer-checks.js';

const TOKEN_MARK = '\u0100';

export const balanceId = (asset: Uint8Array, key: Uint8Array): string =>
  equalBytes(asset, NATIVE_SCID) ? cacheKey(key) : TOKEN_MARK + cacheKey(asset) + cacheKey(key);
