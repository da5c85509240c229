/** The "did you mean" suggestion: edit distance and the nearest known name. */
import t from 'tap';
import { closestName, editDistance } from '../../../host/rpc/closest-name.js';

t.test('edit distance counts insertions, deletions, substitutions and swaps of neighbours', async (t) => {
  t.equal(editDistance('amount', 'amount'), 0);
  t.equal(editDistance('ammount', 'amount'), 1, 'one insertion');
  t.equal(editDistance('amont', 'amount'), 1, 'one deletion');
  t.equal(editDistance('ringsize', 'ringsise'), 1, 'one substitution');
  t.equal(editDistance('', 'fees'), 4);
  t.equal(editDistance('kitten', 'sitting'), 3);
  t.equal(editDistance('sedn', 'send'), 1, 'one swap');
  t.equal(editDistance('ab', 'ba'), 1);
  t.equal(editDistance('abc', 'ca'), 3, 'a swap is of neighbours only, then left alone');
});

t.test('the closest known name, only when it is a plausible typo', async (t) => {
  const known = ['transfers', 'destination', 'amount', 'scid', 'sc', 'sc_rpc', 'ringsize', 'fees'];
  t.equal(closestName('ammount', known), 'amount');
  t.equal(closestName('destinaton', known), 'destination');
  t.equal(closestName('RingSise', known), 'ringsize', 'case does not count');
  t.equal(closestName('fee', known), 'fees');
  t.equal(closestName('colour', known), undefined, 'nothing near enough');
  t.equal(closestName('x', []), undefined, 'no candidates');
  t.equal(closestName('sedn', ['send', 'seed', 'call']), 'send', 'a swap is one slip');
});
