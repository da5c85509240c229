/**
 * The node's libp2p key: it authenticates the node in every encrypted handshake, and its peer id is what other
 * operators pin. Generated on first start and kept in the store, so the peer id survives restarts (a memory store
 * gives a fresh key each run).
 */
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys';
import type { PrivateKey } from '@libp2p/interface';
import type { KeyValueStore } from '../../host/storage/kv-store.js';

const KEY = new TextEncoder().encode('k');

export async function loadNodeKey(store: KeyValueStore): Promise<PrivateKey> {
  const stored = await store.get(KEY);
  if (stored) return privateKeyFromProtobuf(stored);
  const key = await generateKeyPair('Ed25519');
  await store.put(KEY, privateKeyToProtobuf(key));
  return key;
}
