/** The Dandelion++ routing state: epochs and their role, stem successors, held transactions and their embargoes. */
import t from 'tap';
import { Dandelion, DEFAULT_DANDELION, type DandelionSettings, type StemPeer } from '../../../plugins/p2p/dandelion.js';

const settings: DandelionSettings = {
  ...DEFAULT_DANDELION,
  epochMs: 1000,
  epochJitterMs: 100,
  embargoMinMs: 100,
  embargoMeanMs: 50,
  maxStemTxs: 3,
};
const peer = (name: string, direction: StemPeer['direction'] = 'outgoing') => ({ name, direction });
const id = (n: number): Uint8Array => new Uint8Array(32).fill(n);
/** Randomness that returns the given values in turn, then `rest`. */
const sequence =
  (values: number[], rest = 0.5) =>
  () =>
    values.shift() ?? rest;

t.test('each epoch draws its length and its role; the role holds until the epoch ends', async (t) => {
  // First draw: the epoch's jitter (0.5 → 50 ms); second: the role (0.05 < 0.1 → fluffer).
  const dandelion = new Dandelion(settings, sequence([0.5, 0.05, 0.5, 0.95]));
  t.ok(dandelion.isFluffer(0), 'a draw under the fluff probability makes a fluffer');
  t.ok(dandelion.isFluffer(1049), 'for the whole epoch');
  t.notOk(dandelion.isFluffer(1050), 'the next epoch draws again: a relay');

  let fluffers = 0;
  const random = new Dandelion(settings);
  for (let epoch = 0; epoch < 2000; epoch++) if (random.isFluffer(epoch * 2000)) fluffers++;
  t.ok(fluffers > 100 && fluffers < 320, `about one epoch in ten fluffs (${fluffers} of 2000)`);
});

t.test('successors: fixed per predecessor for the epoch, never the sender, outgoing first', async (t) => {
  const a = peer('a');
  const b = peer('b');
  const c = peer('c', 'incoming');
  const d = peer('d', 'incoming');
  const dandelion = new Dandelion(settings);
  const peers = [a, b, c, d];
  const own = dandelion.successor(undefined, peers, 0);
  t.ok(own === a || own === b, 'this node’s own transactions go to an outgoing peer');
  for (let i = 0; i < 20; i++) t.equal(dandelion.successor(undefined, peers, i), own, 'the same one all epoch');
  const seen = new Set([a, b, c, d].map((from) => dandelion.successor(from, peers, 10)));
  t.notOk(seen.has(c) || seen.has(d), 'with two successors, incoming peers are not used while outgoing ones are up');
  t.equal(dandelion.successor(a, peers, 10), b, 'a stem from one successor goes to the other');
  t.equal(dandelion.successor(b, peers, 10), a);

  t.equal(dandelion.successor(a, [a], 10), undefined, 'no peer besides the sender: none (fluff)');
  t.equal(dandelion.successor(undefined, [], 10), undefined, 'no peers at all: none');

  const line = new Dandelion({ ...settings, successors: 1 });
  t.equal(line.successor(a, [a, c], 0), c, 'one outgoing successor that sent the transaction: another peer takes it');
  t.equal(line.successor(c, [a, c], 0), a);
});

t.test('a successor that leaves is replaced; a new epoch picks again', async (t) => {
  const [a, b, c] = [peer('a'), peer('b'), peer('c')];
  const dandelion = new Dandelion<ReturnType<typeof peer>>({ ...settings, successors: 1 });
  const first = dandelion.successor(undefined, [a, b, c], 0);
  const rest = [a, b, c].filter((other) => other !== first);
  const second = dandelion.successor(undefined, rest, 1);
  t.ok(second && rest.includes(second), 'the successor left: another one');
  t.equal(dandelion.successor(undefined, [a, b, c], 2), second, 'and it stays, even when the first one is back');

  const picks = new Set<unknown>();
  for (let epoch = 0; epoch < 50; epoch++) picks.add(dandelion.successor(undefined, [a, b, c], 2000 * (epoch + 1)));
  t.equal(picks.size, 3, 'over many epochs, every peer is picked at some point');
});

t.test('embargoes: at least the minimum, exponential above it, with the tail cut', async (t) => {
  t.equal(new Dandelion(settings, () => 0).embargoMs(), 100, 'a zero draw: the minimum');
  const atMean = new Dandelion(settings, () => 1 - Math.exp(-1)).embargoMs();
  t.ok(Math.abs(atMean - 150) < 1e-9, `a draw at the mean: the minimum plus the mean (${atMean})`);
  t.equal(new Dandelion(settings, () => 1 - 1e-300).embargoMs(), 350, 'an extreme draw: five means above the minimum');
  const dandelion = new Dandelion(settings);
  let sum = 0;
  for (let i = 0; i < 4000; i++) sum += dandelion.embargoMs() - 100;
  t.ok(sum / 4000 > 40 && sum / 4000 < 60, `the mean above the minimum is about 50 ms (${(sum / 4000).toFixed(1)})`);
});

t.test('held transactions: hidden until released, expired in time, stranded when their successor leaves', async (t) => {
  const [a, b] = [peer('a'), peer('b')];
  const dandelion = new Dandelion(settings, () => 0);
  t.ok(dandelion.hold(id(1), undefined, a, 0));
  t.ok(dandelion.hold(id(2), b, a, 50));
  t.ok(dandelion.hold(id(3), a, b, 60));
  t.notOk(dandelion.hold(id(4), undefined, a, 60), 'the stem is full: the caller fluffs it');
  t.ok(dandelion.isStem(id(1)) && !dandelion.isStem(id(4)));

  t.same(dandelion.expired(99), [], 'no embargo is over yet');
  t.same(dandelion.expired(100), [id(1)], 'the first embargo ran out: released for fluffing');
  t.notOk(dandelion.isStem(id(1)));

  t.same(
    dandelion.stranded([b]).map((route) => route.txid),
    [id(2)],
    'the transaction sent to a, gone, is stranded',
  );
  t.ok(dandelion.release(id(2)), 'seen fluffed: released');
  t.notOk(dandelion.release(id(2)), 'once');
  t.equal(dandelion.size, 1);
  t.ok(dandelion.hold(id(4), undefined, undefined, 70), 'room again: an own transaction with nowhere to go yet');
  t.same(
    dandelion.stranded([a, b]).map((route) => route.txid),
    [id(4)],
    'one held without a successor is stranded until it gets one',
  );
});

t.test('a stem that comes back goes on to a peer off the stem, and to none once every peer is on it', async (t) => {
  const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((name) => peer(name));
  const dandelion = new Dandelion(settings, sequence([], 0));
  const peers = [a!, b!, c!, d!, e!];
  dandelion.hold(id(1), a, b, 0);
  t.equal(dandelion.detour(id(1), c!, peers), d, 'not the sender c, nor its predecessor a, nor b it went to');
  t.equal(dandelion.detour(id(1), d!, peers), e, 'back again, from d: on to the last peer off the stem');
  t.equal(dandelion.detour(id(1), e!, peers), undefined, 'every peer is on the stem: none (fluff)');
  t.equal(dandelion.detour(id(2), c!, peers), undefined, 'a transaction not held: none');
});
