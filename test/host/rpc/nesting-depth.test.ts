import t from 'tap';
import { nestedDeeperThan } from '../../../host/rpc/nesting-depth.js';

t.test('nesting is counted in arrays and objects, without recursion', async (t) => {
  t.equal(nestedDeeperThan(undefined, 1), false);
  t.equal(nestedDeeperThan('text', 1), false, 'a scalar has no depth');
  t.equal(nestedDeeperThan([], 1), false);
  t.equal(nestedDeeperThan([[]], 1), true);
  t.equal(nestedDeeperThan({ a: [{ b: 1 }] }, 3), false);
  t.equal(nestedDeeperThan({ a: [{ b: {} }] }, 3), true);
  let deep: unknown = [];
  for (let i = 0; i < 100_000; i++) deep = { next: deep };
  t.equal(nestedDeeperThan(deep, 64), true, 'a hundred thousand levels, and no stack overflow');
});
