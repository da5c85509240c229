import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { prefixUpperBound, type KeyValueStore } from '../../../host/storage/kv-store.js';
import { MemoryStore } from '../../../host/storage/memory-store.js';
import { RocksDbStore } from '../../../host/storage/rocksdb-store.js';

const b = (text: string): Uint8Array => new TextEncoder().encode(text);
const s = (bytes: Uint8Array | undefined): string | undefined => (bytes ? new TextDecoder().decode(bytes) : undefined);

async function collect(iterable: AsyncIterable<[Uint8Array, Uint8Array]>): Promise<string[]> {
  const keys: string[] = [];
  for await (const [key] of iterable) keys.push(s(key)!);
  return keys;
}

const implementations: [string, () => Promise<KeyValueStore>][] = [
  ['memory', async () => new MemoryStore()],
  ['rocksdb', () => RocksDbStore.open(mkdtempSync(join(tmpdir(), 'umbra-kv-')))],
];

// One test body, run against both implementations.
for (const [kind, open] of implementations) {
  t.test(`${kind} store`, async (t) => {
    const store = await open();
    t.teardown(() => store.close());
    t.equal(store.kind, kind);

    t.equal(await store.get(b('missing')), undefined, 'missing key reads undefined');
    await store.put(b('a'), b('1'));
    t.equal(s(await store.get(b('a'))), '1');
    t.equal(s(store.getSync(b('a'))), '1', 'synchronous read');
    await store.del(b('a'));
    t.equal(store.getSync(b('a')), undefined, 'deleted');

    const batch = store.batch();
    for (const key of ['p/b', 'p/a', 'p/c', 'q/a', 'o/z', 'p']) batch.put(b(key), b(`v-${key}`));
    batch.del(b('o/z'));
    t.equal(batch.length, 7);
    t.equal(store.getSync(b('p/a')), undefined, 'nothing visible before write');
    await batch.write();
    await t.rejects(batch.write(), /already written/, 'a batch writes once');
    t.equal(s(await store.get(b('p/b'))), 'v-p/b');
    t.equal(await store.get(b('o/z')), undefined, 'delete in the same batch wins');
    t.same(
      store.getManySync([b('p/c'), b('o/z'), b('p/a'), b('p/c')]).map(s),
      ['v-p/c', undefined, 'v-p/a', 'v-p/c'],
      'many synchronous reads, in the keys order',
    );
    t.same(store.getManySync([]), [], 'no keys, no values');
    const last = (lowest: string, highest: string): string[] | undefined =>
      store.lastSync(b(lowest), b(highest))?.map((bytes) => s(bytes)!);
    t.same(last('p/', 'p/bb'), ['p/b', 'v-p/b'], 'the greatest key at or below the upper bound');
    t.same(last('p/', 'p/c'), ['p/c', 'v-p/c'], 'the upper bound itself');
    t.same(last('p/b', 'p/b0'), ['p/b', 'v-p/b'], 'the lower bound itself');
    t.equal(last('p/d', 'p/z'), undefined, 'nothing in the range');
    t.equal(last('p/0', 'p/1'), undefined, 'nothing at or below within the lower bound');

    t.same(await collect(store.entries()), ['p', 'p/a', 'p/b', 'p/c', 'q/a'], 'ordered iteration');
    t.same(await collect(store.entries({ prefix: b('p/') })), ['p/a', 'p/b', 'p/c'], 'prefix');
    t.same(await collect(store.entries({ prefix: b('p/'), reverse: true })), ['p/c', 'p/b', 'p/a'], 'reverse prefix');
    t.same(await collect(store.entries({ prefix: b('p/'), limit: 2 })), ['p/a', 'p/b'], 'limit');
    t.same(await collect(store.entries({ gt: b('p/a'), lte: b('p/c') })), ['p/b', 'p/c'], 'gt/lte bounds');
    t.same(await collect(store.entries({ gte: b('p/b'), lt: b('q') })), ['p/b', 'p/c'], 'gte/lt bounds');

    // Byte order is unsigned: 0xff sorts after 0x01.
    await store.put(new Uint8Array([9, 0xff]), b('hi'));
    await store.put(new Uint8Array([9, 0x01]), b('lo'));
    const values: string[] = [];
    for await (const [, value] of store.entries({ prefix: new Uint8Array([9]) })) values.push(s(value)!);
    t.same(values, ['lo', 'hi'], 'unsigned byte order');

    await store.put(b('p/a0'), b('new'));
    t.same(last('p/', 'p/a9'), ['p/a0', 'new'], 'a key added after a lookup is found by the next');
    await store.del(b('p/a0'));
    t.same(last('p/', 'p/a9'), ['p/a', 'v-p/a'], 'a key deleted after a lookup is gone from the next');

    const value = b('mutable');
    await store.put(b('m'), value);
    value[0] = 0;
    t.equal(s(await store.get(b('m'))), 'mutable', 'stored values are copies');
  });
}

t.test('prefix upper bound', async (t) => {
  t.same(prefixUpperBound(new Uint8Array([1, 2])), new Uint8Array([1, 3]));
  t.same(prefixUpperBound(new Uint8Array([1, 0xff])), new Uint8Array([2]));
  t.equal(prefixUpperBound(new Uint8Array([0xff, 0xff])), undefined);
});

t.test('rocksdb persists across reopen, and a second opener of a data dir gets a clear error', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'umbra-kv-'));
  const first = await RocksDbStore.open(dir);
  await first.put(b('k'), b('v'));
  await t.rejects(RocksDbStore.open(dir), { name: 'StoreError', message: /is in use by another process/ });
  t.equal(s(await first.get(b('k'))), 'v', 'the first store is unharmed');
  await first.close();
  const reopened = await RocksDbStore.open(dir);
  t.equal(s(await reopened.get(b('k'))), 'v', 'data survives a reopen');
  await reopened.close();
});

t.test('memory store refuses use after close', async (t) => {
  const store = new MemoryStore();
  await store.close();
  t.throws(() => store.getSync(b('a')), /store is closed/);
});

t.test('arbitrary bytes, and views into larger buffers, are stored as exactly their own bytes', async (t) => {
  for (const [, open] of implementations) {
    const store = await open();
    const backing = new Uint8Array(64).map((_, i) => i + 0x80); // bytes that are not valid UTF-8 on their own
    await store.put(backing.subarray(10, 12), backing.subarray(20, 23));
    const batch = store.batch();
    batch.put(backing.subarray(30, 31), backing.subarray(40, 42));
    await batch.write();
    t.same(store.getSync(backing.slice(10, 12)), backing.slice(20, 23), `${store.kind}: put`);
    t.same(await store.get(backing.subarray(30, 31)), backing.slice(40, 42), `${store.kind}: batch`);
    await store.close();
  }
});

// Random writes and range reads, both stores against a plain model: every bound, direction and limit, and lastSync.
t.test('random ranges and versioned look-ups agree with a model, on both stores', async (t) => {
  let seed = 37;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const key = (): Uint8Array => Uint8Array.from({ length: 1 + random(3) }, () => [0, 1, 127, 128, 255][random(5)]!);
  const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
  const stores = await Promise.all(implementations.map(([, open]) => open()));
  t.teardown(() => Promise.all(stores.map((store) => store.close())));
  const model = new Map<string, Uint8Array>();
  const ordered = (): string[] =>
    [...model.keys()].sort((a, b) => Buffer.compare(Buffer.from(a, 'hex'), Buffer.from(b, 'hex')));
  for (let round = 0; round < 40; round++) {
    for (let i = 0; i < 20; i++) {
      const k = key();
      const remove = random(3) === 0;
      for (const store of stores) await (remove ? store.del(k) : store.put(k, k));
      if (remove) model.delete(hex(k));
      else model.set(hex(k), k);
    }
    const [low, high] = [key(), key()];
    const range = {
      ...(random(2) ? { gt: low } : { gte: low }),
      ...(random(2) ? { lt: high } : { lte: high }),
      reverse: random(2) === 1,
      ...(random(2) ? { limit: random(4) } : {}),
    };
    const inRange = ordered().filter((k) => {
      const c = (bound: Uint8Array): number => Buffer.compare(Buffer.from(k, 'hex'), Buffer.from(bound));
      return ('gt' in range ? c(low) > 0 : c(low) >= 0) && ('lt' in range ? c(high) < 0 : c(high) <= 0);
    });
    if (range.reverse) inRange.reverse();
    const expected = inRange.slice(0, range.limit ?? inRange.length);
    const lastAtOrBelow = ordered()
      .filter((k) => Buffer.compare(Buffer.from(k, 'hex'), Buffer.from(high)) <= 0)
      .at(-1);
    const expectedLast =
      lastAtOrBelow !== undefined && Buffer.compare(Buffer.from(lastAtOrBelow, 'hex'), Buffer.from(low)) >= 0
        ? lastAtOrBelow
        : undefined;
    for (const [index, store] of stores.entries()) {
      const got: string[] = [];
      for await (const [k] of store.entries(range)) got.push(hex(k));
      t.same(got, expected, `${implementations[index]![0]}: round ${round}`);
      const last = store.lastSync(low, high);
      t.equal(last && hex(last[0]), expectedLast, `${implementations[index]![0]}: lastSync, round ${round}`);
    }
  }
});
