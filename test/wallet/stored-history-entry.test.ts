import t from 'tap';
import { UmbraError } from '../../core-native/ts/errors.js';
import { parseExactJson, stringifyExactJson } from '../../protocol/exact-json.js';
import { historyEntry, isoTime } from '../../wallet/history-entry.js';
import { storedHistoryEntry } from '../../wallet/stored-history-entry.js';
import { TransferHistory } from '../../wallet/transfer-history.js';
import { WalletFileErrorCode } from '../../wallet/wallet-file.js';

const TOKEN = 'cd'.repeat(32);
const entry = historyEntry({
  place: { height: 3, topoheight: 3, blockhash: 'ab'.repeat(32), tpos: 0, time: isoTime(0) },
  txid: TOKEN,
  kind: 'incoming',
  destination: 'me',
  sender: '',
  amount: 1n << 60n,
  payload: { senderIndex: 1, bytes: new Uint8Array(144), args: [{ name: 'D', datatype: 'U', value: 1n << 60n }] },
});

t.test('an entry goes through the wallet file exactly', async (t) => {
  const history = new TransferHistory();
  history.add(TOKEN, entry);
  const text = stringifyExactJson(history.toJSON());
  t.match(text, '"amount":1152921504606846976', 'written as a JSON integer with every digit');
  const reloaded = new TransferHistory();
  reloaded.load(parseExactJson(text));
  t.same(reloaded.entries(TOKEN), [{ ...entry, scid: TOKEN }]);
  t.equal(reloaded.entries(TOKEN)[0]!.amount, 1n << 60n);
});

t.test(
  'a dropped contract call keeps its mark, its contract, entry point and arguments through the file',
  async (t) => {
    const call = historyEntry({
      place: { height: 0, topoheight: -1, blockhash: '', tpos: 0, time: isoTime(0) },
      txid: 'ef'.repeat(32),
      kind: 'outgoing',
      destination: 'a ring member',
      sender: 'me',
      amount: 500n,
      burn: 500n,
      contract: { scid: TOKEN, entrypoint: 'Deposit', args: [{ name: 'times', datatype: 'U', value: 1n << 60n }] },
    });
    call.dropped = true;
    const install = historyEntry({
      place: { height: 3, topoheight: 3, blockhash: 'ab'.repeat(32), tpos: 0, time: isoTime(0) },
      txid: TOKEN,
      kind: 'outgoing',
      destination: 'a ring member',
      sender: 'me',
      amount: 0n,
      contract: { scid: TOKEN },
    });
    const history = new TransferHistory();
    history.add(TOKEN, call);
    history.add(TOKEN, install);
    const reloaded = new TransferHistory();
    reloaded.load(parseExactJson(stringifyExactJson(history.toJSON())));
    t.same(reloaded.entries(TOKEN), [
      { ...call, scid: TOKEN },
      { ...install, scid: TOKEN },
    ]);
    const damaged = { ...(parseExactJson(stringifyExactJson(call)) as object), contract: { scid: 'x' } };
    t.throws(
      () => storedHistoryEntry(damaged, 'entries.x[0]'),
      /entries\.x\[0\]\.contract\.scid must be 64 hex digits/,
    );
  },
);

t.test("an earlier version's entry (the JSON-RPC form, amounts as plain numbers) reads the same", async (t) => {
  const old = {
    height: 9,
    topoheight: 9,
    blockhash: 'ab'.repeat(32),
    minerreward: 0,
    tpos: 1,
    pos: 0,
    coinbase: false,
    incoming: false,
    txid: 'ef'.repeat(32),
    destination: 'them',
    amount: 1250,
    burn: 50,
    fees: 60,
    proof: 'umbproof1…',
    status: 1,
    time: '2026-01-02T03:04:05.678+00:00',
    ewdata: '',
    data: 'AQ==',
    payloadtype: 0,
    payload: '',
    payload_rpc: [{ name: 'C', datatype: 'S', value: 'invoice 7' }],
    sender: 'me',
    dstport: 0,
    srcport: 0,
  };
  t.same(storedHistoryEntry(parseExactJson(JSON.stringify(old)), 'entries.x[0]'), {
    height: 9,
    topoheight: 9,
    blockhash: 'ab'.repeat(32),
    tpos: 1,
    pos: 0,
    txid: 'ef'.repeat(32),
    time: '2026-01-02T03:04:05.678+00:00',
    coinbase: false,
    incoming: false,
    destination: 'them',
    sender: 'me',
    amount: 1250n,
    burn: 50n,
    fees: 60n,
    proof: 'umbproof1…',
    payloadtype: 0,
    data: 'AQ==',
    args: [{ name: 'C', datatype: 'S', value: 'invoice 7' }],
  });
  const { burn: _, payload_rpc: __, ...plain } = old;
  t.match(storedHistoryEntry(plain, 'entries.x[1]'), { burn: 0n, args: [] }, 'no burn, no arguments');
});

t.test('a damaged entry is a clear wallet-file error naming the field', async (t) => {
  const stored = parseExactJson(stringifyExactJson(entry)) as Record<string, unknown>;
  const failure = (value: unknown): unknown => {
    try {
      storedHistoryEntry(value, `entries.${TOKEN}[0]`);
    } catch (error) {
      return error;
    }
    return undefined;
  };
  for (const [damaged, message] of [
    [{ ...stored, amount: -1 }, /\[0\]\.amount must be an integer of atomic units \(0 … 2\^64 − 1\)$/],
    [{ ...stored, amount: 1.5 }, /\.amount must be an integer of atomic units/],
    [{ ...stored, fees: '60' }, /\.fees must be an integer of atomic units/],
    [{ ...stored, height: 'x' }, /\.height must be an integer/],
    [{ ...stored, args: [{ name: 'D', datatype: 'Q', value: 1 }] }, /unknown datatype "Q"/],
    ['an entry', /entries\..*\[0\] is not an object/],
  ] as const) {
    const error = failure(damaged);
    t.ok(UmbraError.is(error, WalletFileErrorCode.BadHistory), String(message));
    t.match((error as Error).message, /^the wallet file's history is damaged: /);
    t.match((error as Error).message, message);
  }
});
