/** A bounded map: under the limit nothing goes; at the limit the older half goes before the new entry is set. */
import t from 'tap';
import { setBounded } from '../../../../plugins/consensus/state/bounded-map.js';

t.test('a full map drops its older half, then holds the new entry', async (t) => {
  const map = new Map<number, string>();
  for (const key of [1, 2, 3, 4]) setBounded(map, 4, key, `v${key}`);
  t.same([...map.keys()], [1, 2, 3, 4], 'up to the limit, everything stays');
  setBounded(map, 4, 3, 'again');
  t.same([...map.keys()], [3, 4], 'full: the older half went, even when the key was already there');
  t.equal(map.get(3), 'again');
  setBounded(map, 5, 9, 'v9');
  t.same([...map.keys()], [3, 4, 9], 'under a higher limit nothing goes');
});
