import t from 'tap';
import { argumentPort, historyEntry, isoTime, unmined, type EntryPlace } from '../../wallet/history-entry.js';

const TWO_60 = 1n << 60n;
const MAX_U64 = (1n << 64n) - 1n;
const place: EntryPlace = { height: 7, topoheight: 8, blockhash: 'ab'.repeat(32), tpos: 2, time: isoTime(0) };

t.test('an incoming entry keeps its amounts exact and its payload as bytes and arguments', async (t) => {
  const bytes = new Uint8Array(144);
  bytes.set([0xa1, 0x62, 0x44, 0x55, 0x07]);
  const entry = historyEntry({
    place,
    txid: 'cd'.repeat(32),
    pos: 1,
    kind: 'incoming',
    destination: 'me',
    sender: 'them',
    amount: TWO_60 + 1n,
    burn: MAX_U64,
    fees: 60n,
    proof: 'umbproof1…',
    payloadtype: 0,
    payload: { senderIndex: 3, bytes, args: [{ name: 'D', datatype: 'U', value: 7n }] },
  });
  t.same(entry, {
    height: 7,
    topoheight: 8,
    blockhash: 'ab'.repeat(32),
    tpos: 2,
    pos: 1,
    txid: 'cd'.repeat(32),
    time: isoTime(0),
    coinbase: false,
    incoming: true,
    destination: 'me',
    sender: 'them',
    amount: 1152921504606846977n,
    burn: 18446744073709551615n,
    fees: 60n,
    proof: 'umbproof1…',
    payloadtype: 0,
    data: Buffer.concat([Buffer.from([3]), bytes]).toString('base64'),
    args: [{ name: 'D', datatype: 'U', value: 7n }],
  });
  t.notOk('scid' in entry || 'sc_outcome' in entry, 'no token, no outcome');
});

t.test('defaults: no burn, fee, proof, payload; the kinds set coinbase and incoming', async (t) => {
  const facts = { place, txid: '', destination: 'me', sender: '', amount: TWO_60 };
  const coinbase = historyEntry({ ...facts, kind: 'coinbase' });
  t.match(coinbase, { coinbase: true, incoming: true, pos: 0, burn: 0n, fees: 0n, proof: '', data: '', args: [] });
  t.equal(coinbase.amount, TWO_60);
  t.match(historyEntry({ ...facts, kind: 'incoming' }), { coinbase: false, incoming: true });
  const outcome = { status: 'committed', code: 0, gascompute: 5 } as const;
  t.match(historyEntry({ ...facts, kind: 'outgoing', sc_outcome: outcome }), {
    coinbase: false,
    incoming: false,
    sc_outcome: outcome,
  });
});

t.test('a transaction just sent is not in a block', async (t) => {
  t.same(unmined(0), { height: 0, topoheight: -1, blockhash: '', tpos: 0, time: isoTime(0) });
});

t.test('ports are the U arguments D and S, exact as uint64s', async (t) => {
  const args = [
    { name: 'D', datatype: 'U', value: MAX_U64 },
    { name: 'S', datatype: 'S', value: 'not a port' },
  ] as const;
  t.equal(argumentPort([...args], 'D'), MAX_U64);
  t.equal(argumentPort([...args], 'S'), 0n, 'a string S is no port');
  t.equal(argumentPort([], 'D'), 0n);
});

t.test('time: ISO 8601 with milliseconds and the local offset', async (t) => {
  t.match(isoTime(Date.UTC(2026, 0, 2, 3, 4, 5, 678)), /^2026-01-0[12]T\d\d:\d\d:05\.678[+-]\d\d:\d\d$/);
});
