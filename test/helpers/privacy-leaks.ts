/**
 * What no request of a private wallet may hold (docs/wallet.md § Privacy modes): its address, its public key, its key
 * hash or a prefix of the key hash longer than its privacy range's — as hex or base64 anywhere in the body — nor a
 * range parameter narrower than the privacy range that holds the key hash.
 */
import { toHex } from '../../protocol/bytes.js';
import { inRange, type KeyRange } from '../../protocol/state/range-check.js';
import type { ProxiedCall } from './recording-proxy.js';

export interface WalletIdentity {
  address: string;
  publicKey: Uint8Array;
  /** BLAKE2s of the public key. */
  keyhash: Uint8Array;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64').replace(/=+$/, '');

/** The names of what `body` (one request, as sent) gives away of `wallet`, whose privacy range is `range`. */
export function leaks(body: string, wallet: WalletIdentity, range: KeyRange): string[] {
  const found: string[] = [];
  const secret = { address: wallet.address, key: toHex(wallet.publicKey), keyBase64: b64(wallet.publicKey) };
  for (const [name, text] of Object.entries(secret)) if (body.includes(text)) found.push(name);
  for (let bytes = Math.max(range.prefix.length + 1, 4); bytes <= 32; bytes++) {
    const prefix = wallet.keyhash.subarray(0, bytes);
    if (body.includes(toHex(prefix)) || body.includes(b64(prefix))) found.push(`${bytes}-byte key hash`);
  }
  const calls = [JSON.parse(body)].flat() as ProxiedCall[];
  for (const { params } of calls)
    if (typeof params?.bits === 'number' && params.bits > range.bits && params.prefix)
      if (inRange(wallet.keyhash, { bits: params.bits, prefix: Buffer.from(params.prefix, 'hex') }))
        found.push(`a ${params.bits}-bit range holding the key hash`);
  return found;
}
