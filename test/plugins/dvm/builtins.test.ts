/** Every built-in: its result, its compute cost (5000 for the line + the built-in's own), and its failure paths. */
import { createHash } from 'node:crypto';
import t from 'tap';
import { account, dvm } from '../../helpers/dvm.js';
import { evaluate, snippet } from '../../helpers/dvm-snippet.js';

const ZERO64 = '0'.repeat(64);
const SCID = '11'.repeat(32);

t.test('result and compute gas of each built-in', async (t) => {
  const { core } = await dvm();
  const alice = account(core, 1);
  const env = {
    scid: SCID,
    blid: '22'.repeat(32),
    txid: '33'.repeat(32),
    height: 77,
    timestamp: 1_700_000_123_456,
    signer: alice.address,
    coinvalue: 500,
    assets: { ['44'.repeat(32)]: 9 },
    balances: { [ZERO64]: 1000 },
  };
  // [expression, return type, shown result, built-in gas (beyond the line's 5000 and 800 per operator)]
  const cases: [string, 'Uint64' | 'String', string, number][] = [
    ['VERSION("1.2.3")', 'Uint64', '1', 1000],
    ['STORE("k", 5)', 'Uint64', '1', 10000],
    ['DELETE("k")', 'Uint64', '1', 3000],
    ['EXISTS("nothing")', 'Uint64', '0', 5000],
    ['MAPSTORE("k", 1)', 'Uint64', '1', 1000],
    ['MAPEXISTS("k")', 'Uint64', '0', 1000],
    ['MAPDELETE("k")', 'Uint64', '1', 1000],
    ['RANDOM(1)', 'Uint64', '0', 2500],
    ['HEX(SCID())', 'String', SCID, 2000 + 10000],
    ['HEX(BLID())', 'String', '22'.repeat(32), 2000 + 10000],
    ['HEX(TXID())', 'String', '33'.repeat(32), 2000 + 10000],
    ['HEX(COIN())', 'String', ZERO64, 10000 + 10000],
    ['BLOCK_HEIGHT()', 'Uint64', '77', 2000],
    ['BLOCK_TIMESTAMP()', 'Uint64', '1700000123', 2500],
    ['SIGNER()', 'String', alice.rawHex, 5000],
    ['COINVALUE()', 'Uint64', '500', 10000],
    ['ASSETVALUE(HEXDECODE("' + '44'.repeat(32) + '"))', 'Uint64', '9', 10000 + 10000],
    ['ASSETVALUE(COIN())', 'Uint64', '500', 10000 + 10000],
    ['UPDATE_SC_CODE(5)', 'Uint64', '0', 5000],
    ['IS_ADDRESS_VALID(SIGNER())', 'Uint64', '1', 50000 + 5000],
    [`IS_ADDRESS_VALID("${alice.address}")`, 'Uint64', '1', 50000],
    ['IS_ADDRESS_VALID("nope")', 'Uint64', '0', 50000],
    [`ADDRESS_RAW("${alice.address}")`, 'String', alice.rawHex, 60000],
    ['ADDRESS_RAW("nope")', 'String', '', 60000],
    ['ADDRESS_STRING(SIGNER())', 'String', alice.address, 50000 + 5000],
    ['ADDRESS_STRING("x")', 'String', '', 50000],
    ['SEND_COIN_TO_ADDRESS(SIGNER(), 0)', 'Uint64', '0', 70000 + 5000],
    ['SEND_COIN_TO_ADDRESS(SIGNER(), 1500)', 'Uint64', '1500', 70000 + 5000],
    ['SEND_ASSET_TO_ADDRESS(SIGNER(), 10, SCID())', 'Uint64', '10', 90000 + 5000 + 2000],
    ['ATOI("0042")', 'Uint64', '42', 5000],
    ['ITOA(18446744073709551615)', 'String', '18446744073709551615', 5000],
    ['HEX(SHA256("abc"))', 'String', createHash('sha256').update('abc').digest('hex'), 10000 + 25000],
    ['HEX(SHA3256("abc"))', 'String', createHash('sha3-256').update('abc').digest('hex'), 10000 + 25000],
    ['HEX(KECCAK256(""))', 'String', 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470', 10000 + 25000],
    ['HEX("é")', 'String', 'c3a9', 10000],
    ['HEXDECODE("4142")', 'String', 'AB', 10000],
    ['HEXDECODE("")', 'String', '', 10000],
    ['MIN(3, 9)', 'Uint64', '3', 5000],
    ['MAX(3, 9)', 'Uint64', '9', 5000],
    ['STRLEN("é")', 'Uint64', '2', 20000],
    ['SUBSTR("0123456789", 2, 3)', 'String', '234', 20000],
    ['SUBSTR("0123456789", 8, 5)', 'String', '89', 20000],
    ['SUBSTR("0123456789", 10, 1)', 'String', '', 20000],
    ['SUBSTR("0123456789", 0, 18446744073709551615)', 'String', '0123456789', 20000],
    ['sTrLeN("abc")', 'Uint64', '3', 20000],
  ];
  for (const [expr, type, expected, gas] of cases) {
    const r = await evaluate(expr, type, { env });
    t.equal(r.ok, true, `${expr} runs`);
    t.equal(r.result, expected, `${expr} = ${expected}`);
    t.equal(r.gas.compute, 5000 + gas, `${expr} costs ${gas}`);
  }
});

t.test('failures: each panics and discards', async (t) => {
  const { core } = await dvm();
  const alice = account(core, 1);
  const env = { signer: alice.address, coinvalue: 10, balances: { [ZERO64]: 100 } };
  const cases: [string, RegExp][] = [
    ['LOAD("missing")', /LOAD: no stored value under key "missing"/],
    ['MAPGET("missing")', /MAPGET: nothing stored/],
    ['PANIC()', /^PANIC$/],
    ['PANIC(LOAD("x"), 1, 2)', /^PANIC$/],
    ['ATOI("12a")', /not a decimal number/],
    ['ATOI("")', /not a decimal number/],
    ['ATOI("18446744073709551616")', /does not fit/],
    ['ATOI(5)', /argument 1 must be a String/],
    ['ITOA("5")', /argument 1 must be a Uint64/],
    ['HEXDECODE("abc")', /not an even number of hex digits/],
    ['HEXDECODE("zz")', /not an even number of hex digits/],
    ['SUBSTR("0123456789", 1, 18446744073709551615)', /overflows/],
    ['RANDOM(0)', /limit must be above 0/],
    ['RANDOM("x")', /must be a Uint64/],
    ['VERSION("v1.0")', /not a semantic version/],
    ['VERSION("01.0.0")', /not a semantic version/],
    ['SEND_COIN_TO_ADDRESS(SIGNER(), 111)', /insufficient coin balance \(has 110, sending 111\)/],
    ['SEND_COIN_TO_ADDRESS("nobody", 1)', /not an address/],
    ['SEND_COIN_TO_ADDRESS(SIGNER(), "1")', /argument 2 must be a Uint64/],
    ['SEND_ASSET_TO_ADDRESS(SIGNER(), 1, "short")', /asset id is 32 raw bytes/],
    ['SEND_ASSET_TO_ADDRESS(SIGNER(), 1, HEXDECODE("' + '55'.repeat(32) + '"))', /insufficient asset 5555/],
    ['ASSETVALUE("x")', /asset id is 32 raw bytes/],
    ['UPDATE_SC_CODE("Function F(")', /new code does not compile/],
  ];
  for (const [expr, message] of cases) {
    const r = await snippet(`10 STORE("before", 1)\n20 RETURN ${expr}`, { env });
    t.equal(r.ok, false, `${expr} fails`);
    t.equal(r.committed, false);
    t.same(r.writes, [], 'nothing is written');
    t.match(r.error?.message, message, expr);
    t.equal(r.error?.line, 20);
  }
});

t.test('two payments add up against the balance; the own token is minted without limit', async (t) => {
  const { core } = await dvm();
  const env = { signer: account(core, 1).address, scid: SCID, coinvalue: 5, balances: { [ZERO64]: 10 } };
  t.equal(
    (await snippet('10 SEND_COIN_TO_ADDRESS(SIGNER(), 10)\n20 RETURN SEND_COIN_TO_ADDRESS(SIGNER(), 5) - 5', { env }))
      .committed,
    true,
    '15 of 10 + 5 deposited',
  );
  t.equal(
    (await snippet('10 SEND_COIN_TO_ADDRESS(SIGNER(), 10)\n20 RETURN SEND_COIN_TO_ADDRESS(SIGNER(), 6) - 6', { env }))
      .ok,
    false,
    '16 is too much',
  );
  const mint = await evaluate(
    'SEND_ASSET_TO_ADDRESS(SIGNER(), 18446744073709551615, SCID()) - 18446744073709551615',
    'Uint64',
    { env },
  );
  t.equal(mint.committed, true);
  t.same(mint.transfers, [{ asset: SCID, address: env.signer, amount: '18446744073709551615' }]);
});

t.test('storage: read-your-writes, typed keys, delete, gas by value size', async (t) => {
  const r = await snippet(
    [
      '10 STORE("n", 300)',
      '20 STORE(1, "one")',
      '30 STORE("1", 2)',
      '40 IF LOAD(1) != "one" THEN GOTO 100',
      '50 IF LOAD("1") != 2 THEN GOTO 100',
      '60 DELETE("old")',
      '70 IF EXISTS("old") THEN GOTO 100',
      '80 RETURN LOAD("n") - 300',
      '100 RETURN 1',
    ].join('\n'),
    { store: [{ ktype: 'S', key: 'old', vtype: 'S', value: 'abcdefghijklmnopqrstuvwxyz' }] },
  );
  t.equal(r.committed, true);
  t.same(r.writes, [
    { ktype: 'S', key: 'n', vtype: 'U', value: 300 },
    { ktype: 'U', key: 1, vtype: 'S', value: 'one' },
    { ktype: 'S', key: '1', vtype: 'U', value: 2 },
    { ktype: 'S', key: 'old', deleted: true },
  ]);
  // the argument list {SC_ACTION: U 0, SC_ID: H …, entrypoint: S "F"} is 68 bytes of CBOR (1 + 12 + 41 + 14); STOREs: 300 → 3, "one" → 4, 2 → 2;
  // LOADs of small values and the EXISTS after DELETE: 1 each (4); the deleted key is never read.
  t.equal(r.gas.storage, 68 + 3 + 4 + 2 + 4);
  const big = await snippet('10 RETURN STRLEN(LOAD("big")) - 99', {
    store: [{ ktype: 'S', key: 'big', vtype: 'S', value: 'x'.repeat(99) }],
  });
  t.equal(big.gas.storage, 68 + 10, 'a 100-byte value costs 100/10 to read');
});

t.test('MAP* memory is shared by frames of one call and never stored', async (t) => {
  const code = [
    'Function F() Uint64',
    '10 MAPSTORE(2, "two")',
    '20 helper()',
    '30 RETURN MAPGET("from helper") + STRLEN(MAPGET(2)) - 10',
    'End Function',
    'Function helper()',
    '10 MAPSTORE("from helper", 7)',
    '20 RETURN',
    'End Function',
  ].join('\n');
  const r = await (await dvm()).run({ code, entrypoint: 'F' });
  t.equal(r.committed, true);
  t.same(r.writes, []);
});

t.test('RANDOM is deterministic per SCID, BLID and TXID (reference vectors)', async (t) => {
  const zero = { scid: '0'.repeat(64), blid: '0'.repeat(64), txid: '0'.repeat(64) };
  const draws = await snippet(
    '10 DIM a, b AS Uint64\n20 LET a = RANDOM()\n30 LET b = RANDOM()\n40 RETURN ITOA(a) + " " + ITOA(b) + " " + ITOA(RANDOM())',
    { returns: 'String', env: zero },
  );
  t.equal(draws.result, '374062192010538750 3067947326316666996 2152986852605908078');
  t.equal((await evaluate('RANDOM(100)', 'Uint64', { env: zero })).result, '50');
  const abc = { scid: 'aa'.repeat(32), blid: 'bb'.repeat(32), txid: 'cc'.repeat(32) };
  t.equal((await evaluate('RANDOM()', 'Uint64', { env: abc })).result, '15702298350473627070');
  t.equal(
    (await evaluate('RANDOM()', 'Uint64', { env: { ...zero, scid: '16' + '0'.repeat(62) } })).result,
    '14580771250182742861',
  );
});

t.test('UPDATE_SC_CODE sets compilable code for the next call; the code is not a variable', async (t) => {
  const next = 'Function G() Uint64\n10 RETURN 0\nEnd Function';
  const r = await snippet(`10 UPDATE_SC_CODE(${JSON.stringify(next)})\n20 STORE("C", 1)\n30 RETURN 0`);
  t.equal(r.committed, true);
  t.equal(r.code, next);
  t.same(r.writes, [{ ktype: 'S', key: 'C', vtype: 'U', value: 1 }], '"C" is an ordinary variable');
  t.equal(r.gas.storage, 68 + next.length + 1 + 2);
  const discarded = await snippet(`10 UPDATE_SC_CODE(${JSON.stringify(next)})\n20 RETURN 1`);
  t.equal(discarded.code, null, 'a discarded call changes no code');
});
