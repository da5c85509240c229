/** Trie values remembered by root and key: each read once, roots apart, absent values too, the older half evicted. */
import t from 'tap';
import { LeafReads } from '../../../../plugins/consensus/state/leaf-reads.js';

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

t.test('a value is read once per root and key; another root or key is read on its own', async (t) => {
  const reads = new LeafReads();
  const calls: string[] = [];
  const read = (label: string, value: Uint8Array | undefined) => (): Uint8Array | undefined => {
    calls.push(label);
    return value;
  };
  const rootA = new Uint8Array(32).fill(1);
  const rootB = new Uint8Array(32).fill(2);
  for (let pass = 0; pass < 2; pass++) {
    t.same(reads.get(rootA, bytes(9), read('A9', bytes(7))), bytes(7), `root A, key 9, pass ${pass}`);
    t.same(reads.get(rootB, bytes(9), read('B9', bytes(8))), bytes(8), `root B, key 9, pass ${pass}`);
    t.equal(reads.get(rootA, bytes(10), read('A10', undefined)), undefined, `an absent key, pass ${pass}`);
  }
  t.same(calls, ['A9', 'B9', 'A10'], 'each (root, key) read once, the absent one too');
});

t.test('a full cache drops its older half', async (t) => {
  const reads = new LeafReads(4);
  let calls = 0;
  const read = (key: number) =>
    reads.get(new Uint8Array(32), bytes(key), () => {
      calls++;
      return bytes(key);
    });
  for (const key of [1, 2, 3, 4, 5]) read(key);
  t.equal(calls, 5, 'five reads');
  read(4);
  read(5);
  t.equal(calls, 5, 'the newest are still remembered');
  read(1);
  t.equal(calls, 6, 'the oldest was dropped and is read again');
});

t.test('many keys: the remembered are answered, the rest read in one call and remembered', async (t) => {
  const reads = new LeafReads();
  const root = new Uint8Array(32).fill(3);
  const asked: Uint8Array[][] = [];
  const readMany = (keys: Uint8Array[]) => {
    asked.push(keys);
    return keys.map((key) => (key[0]! % 2 === 0 ? bytes(key[0]! * 10) : undefined));
  };
  t.same(
    reads.get(root, bytes(2), () => bytes(20)),
    bytes(20),
  );
  t.same(reads.getMany(root, [bytes(1), bytes(2), bytes(4)], readMany), [undefined, bytes(20), bytes(40)]);
  t.same(asked, [[bytes(1), bytes(4)]], 'only the unknown keys read, together');
  t.same(reads.getMany(root, [bytes(4), bytes(1)], readMany), [bytes(40), undefined], 'then all remembered');
  t.equal(asked.length, 1, 'no second read');
});
