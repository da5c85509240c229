/** The change finder on scripted balance histories: every change found, in order, with few reads. */
import t from 'tap';
import { findBalanceChanges } from '../../wallet/balance-changes.js';

/** A balance history over topoheights 0 … `length`-1 that changes after each of `changes`; counts the reads. */
function history(length: number, changes: number[]) {
  const data: string[] = [];
  let version = 0;
  for (let topo = 0; topo < length; topo++) data.push(`v${changes.includes(topo) ? ++version : version}`);
  const reads: number[] = [];
  const read = async (topoheight: number): Promise<string | undefined> => {
    reads.push(topoheight);
    return data[topoheight];
  };
  const at = (topoheight: number) => ({ topoheight, data: data[topoheight]! });
  return { read, reads, at };
}

t.test('finds every change between two positions, in chain order', async (t) => {
  const { read, at } = history(1000, [3, 4, 517, 998]);
  t.same(await findBalanceChanges(read, at(0), at(999)), [at(3), at(4), at(517), at(998)]);
  t.same(await findBalanceChanges(read, at(4), at(999)), [at(517), at(998)], 'none at or before the start');
});

t.test('an unchanged balance costs no read; a few changes cost a few reads per change', async (t) => {
  const unchanged = history(1000, []);
  t.same(await findBalanceChanges(unchanged.read, unchanged.at(0), unchanged.at(999)), []);
  t.equal(unchanged.reads.length, 0);
  const sparse = history(1 << 16, [40_000]);
  t.same(await findBalanceChanges(sparse.read, sparse.at(0), sparse.at((1 << 16) - 1)), [sparse.at(40_000)]);
  t.ok(sparse.reads.length <= 17, `one change in 65536 blocks: ${sparse.reads.length} reads`);
});

t.test('a reading of nothing counts as unchanged', async (t) => {
  const changes = await findBalanceChanges(
    async (topoheight) => (topoheight === 6 ? 'b' : undefined),
    { topoheight: 0, data: 'a' },
    { topoheight: 8, data: 'b' },
  );
  t.same(changes, [{ topoheight: 6, data: 'b' }], 'the balance is taken as unchanged before the one reading at 6');
});
