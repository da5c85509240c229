import { join } from 'node:path';
import type { UmbraConfig } from '../config/schema.js';
import type { KeyValueStore } from './kv-store.js';
import { MemoryStore } from './memory-store.js';
import { RocksDbStore } from './rocksdb-store.js';

/** Opens the store the config asks for: RocksDB under `<dataDir>/db`, or a fresh in-memory store. */
export async function openStore(config: Pick<UmbraConfig, 'store' | 'dataDir'>): Promise<KeyValueStore> {
  return config.store === 'memory' ? new MemoryStore() : RocksDbStore.open(join(config.dataDir, 'db'));
}
