/**
 * A small string-keyed table of JSON records in the node's store, under its own key prefix (`p` + a letter): the
 * peer lists and the bans. Writes are not awaited by callers (peers come and go on the network's schedule); `flush`
 * waits for them before the store closes.
 */
import type { Logger } from '../../host/logger.js';
import type { KeyValueStore } from '../../host/storage/kv-store.js';

const text = new TextEncoder();
const untext = new TextDecoder();

export class StoredTable<V> {
  private readonly prefix: Uint8Array;
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly store: KeyValueStore,
    letter: string,
    private readonly logger: Logger,
  ) {
    this.prefix = text.encode('p' + letter);
  }

  async load(): Promise<Map<string, V>> {
    const rows = new Map<string, V>();
    for await (const [key, value] of this.store.entries({ prefix: this.prefix })) {
      rows.set(untext.decode(key.subarray(this.prefix.length)), JSON.parse(untext.decode(value)) as V);
    }
    return rows;
  }

  put(name: string, value: V): void {
    this.track(this.store.put(this.key(name), text.encode(JSON.stringify(value))));
  }

  delete(name: string): void {
    this.track(this.store.del(this.key(name)));
  }

  async flush(): Promise<void> {
    await Promise.all(this.writes);
  }

  private key(name: string): Uint8Array {
    const suffix = text.encode(name);
    const key = new Uint8Array(this.prefix.length + suffix.length);
    key.set(this.prefix);
    key.set(suffix, this.prefix.length);
    return key;
  }

  private track(write: Promise<void>): void {
    const tracked = write
      .catch((error: Error) => this.logger.warn(`could not persist peer data: ${error.message}`))
      .finally(() => this.writes.delete(tracked));
    this.writes.add(tracked);
  }
}
