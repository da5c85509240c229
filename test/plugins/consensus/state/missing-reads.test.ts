/** Filling what was not at hand: one read for all the missing entries, in their order, none when nothing is missing. */
import t from 'tap';
import { fillMissing, fillMissingAsync } from '../../../../plugins/consensus/state/missing-reads.js';

t.test('the missing entries are read in one call, by index, and land in their places', async (t) => {
  const calls: number[][] = [];
  const filled = fillMissing(['a', undefined, 'c', undefined, undefined], (missing) => {
    calls.push(missing);
    return missing.map((i) => `read ${i}`);
  });
  t.same(filled, ['a', 'read 1', 'c', 'read 3', 'read 4']);
  t.same(calls, [[1, 3, 4]], 'one call with every missing index, in order');
});

t.test('nothing missing reads nothing; null is an answer, not a gap', async (t) => {
  let calls = 0;
  const read = (missing: number[]): (string | null)[] => {
    calls++;
    return missing.map(() => 'read');
  };
  t.same(fillMissing(['a', null, 'c'], read), ['a', null, 'c']);
  t.same(fillMissing([], read), []);
  t.equal(calls, 0);
});

t.test('a read that completes later fills the same places; nothing missing reads nothing', async (t) => {
  const calls: number[][] = [];
  const read = async (missing: number[]): Promise<string[]> => {
    calls.push(missing);
    return missing.map((i) => `read ${i}`);
  };
  t.same(await fillMissingAsync([undefined, 'b', undefined], read), ['read 0', 'b', 'read 2']);
  t.same(await fillMissingAsync(['a', 'b'], read), ['a', 'b']);
  t.same(calls, [[0, 2]], 'one call, only where something was missing');
});
