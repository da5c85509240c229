import { join } from 'node:path';
import type { UmbraConfig } from '../config/schema.js';
import type { KeyValueStore } from './kv-store.js';
import { MemoryStore } from './memory-store.js';

/**
 * Opens the store the config asks for: RocksDB under `<dataDir>/db`, or a fresh in-memory store. RocksDB's library
 * (≈ 9 MiB resident once loaded) is loaded only for the first.
 */
export async function openStore(config: Pick<UmbraConfig, 'store' | 'dataDir'>): Promise<KeyValueStore> {
  if (config.store === 'memory') return new MemoryStore();
  const { RocksDbStore } = await import('./rocksdb-store.js');
  return RocksDbStore.open(join(config.dataDir, 'db'));
}
