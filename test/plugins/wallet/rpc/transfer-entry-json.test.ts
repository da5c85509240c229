import t from 'tap';
import { transferEntryJson } from '../../../../plugins/wallet/rpc/transfer-entry-json.js';
import { stringifyExactJson } from '../../../../protocol/exact-json.js';
import { historyEntry, isoTime, unmined, type EntryPlace } from '../../../../wallet/history-entry.js';

const place: EntryPlace = { height: 4, topoheight: 4, blockhash: 'ab'.repeat(32), tpos: 1, time: isoTime(0) };
const padded = new Uint8Array(144);
padded.set([0xa1, 0x62, 0x44, 0x55, 0x1b, 0x10, 0, 0, 0, 0, 0, 0, 0]);

t.test("an entry in the answers' form: exact uint64s and the fields derived from the others", async (t) => {
  const entry = historyEntry({
    place: unmined(0),
    txid: 'cd'.repeat(32),
    pos: 0,
    kind: 'outgoing',
    destination: 'them',
    sender: 'me',
    amount: (1n << 60n) + 5n,
    burn: 5n,
    fees: 60n,
    proof: 'umbproof1…',
    payload: { senderIndex: 1, bytes: padded, args: [{ name: 'D', datatype: 'U', value: 1n << 60n }] },
  });
  const json = transferEntryJson({ ...entry, scid: 'ef'.repeat(32) });
  t.same(json, {
    height: 0,
    topoheight: -1,
    blockhash: '',
    minerreward: 0n,
    tpos: 0,
    pos: 0,
    coinbase: false,
    incoming: false,
    txid: 'cd'.repeat(32),
    destination: 'them',
    amount: 1152921504606846981n,
    burn: 5n,
    fees: 60n,
    proof: 'umbproof1…',
    status: 1,
    time: isoTime(0),
    ewdata: '',
    data: entry.data,
    payloadtype: 0,
    payload: Buffer.from(padded).toString('base64'),
    payload_rpc: [{ name: 'D', datatype: 'U', value: 1n << 60n }],
    sender: 'me',
    dstport: 1n << 60n,
    srcport: 0n,
    scid: 'ef'.repeat(32),
  });
  const text = stringifyExactJson(json);
  t.match(text, '"amount":1152921504606846981,', 'the amount with every digit');
  t.match(text, '"dstport":1152921504606846976,', 'the port too');
});

t.test('a coinbase share: minerreward is its amount; no burn, no arguments', async (t) => {
  const json = transferEntryJson(
    historyEntry({ place, txid: 'ab'.repeat(32), kind: 'coinbase', destination: 'me', sender: '', amount: 61_500n }),
  );
  t.match(json, {
    coinbase: true,
    incoming: true,
    status: 0,
    amount: 61_500n,
    minerreward: 61_500n,
    data: '',
    payload: '',
  });
  t.notOk('burn' in json || 'payload_rpc' in json || 'scid' in json || 'sc_outcome' in json);
});
