/** Limits (docs/contracts.md § Gas and limits, § When a call commits) and the commit/discard rule: only an entry point returning Uint64 0 commits. */
import t from 'tap';
import { MAX_CALL_DEPTH, MAX_COMPUTE_GAS, MAX_EVALUATIONS, MAX_LINES } from '../../../plugins/dvm/limits.js';
import { account, dvm } from '../../helpers/dvm.js';
import { snippet, source } from '../../helpers/dvm-snippet.js';

t.test('lines: 2000 interpreted lines per call', async (t) => {
  // GOTO lines cost exactly 5000: 2000 of them use the whole 10,000,000 compute gas, and line 2001 is refused
  // by the line limit first.
  const r = await snippet('10 GOTO 20\n20 GOTO 10');
  t.match(r.error, { message: `more than ${MAX_LINES} lines interpreted` });
  t.same(r.writes, []);
});

t.test('compute gas: an endless loop runs out of gas', async (t) => {
  const r = await snippet('10 DIM i AS Uint64\n20 LET i = i + 1\n30 STORE("i", i)\n40 GOTO 20');
  t.match(r.error, { message: `out of compute gas (limit ${MAX_COMPUTE_GAS})` });
  t.same(r.writes, [], 'the stores are discarded');
});

t.test('evaluations: 11000 expression nodes per call', async (t) => {
  // One line with 201 literals and 200 operators is 401 evaluations (and 5000 + 200·800 gas).
  const expr = Array(201).fill('1').join(' + ');
  const fine = await snippet(
    `10 DIM i, x AS Uint64\n20 LET x = ${expr}\n30 LET i = i + 1\n40 IF i < 27 THEN GOTO 20\n50 RETURN 0`,
  );
  t.equal(fine.error, null, '27 lines of 401 plus small ones stays under 11000');
  const over = await snippet(
    `10 DIM i, x AS Uint64\n20 LET x = ${expr}\n30 LET i = i + 1\n40 IF i < 28 THEN GOTO 20\n50 RETURN 0`,
  );
  t.match(over.error, { message: `more than ${MAX_EVALUATIONS} expression evaluations` });
});

t.test('storage gas: limited by the fee (at most 20000); fee 0 is unlimited', async (t) => {
  const store = (n: number) => `10 STORE("k", "${'x'.repeat(n)}")\n20 RETURN 0`;
  t.equal((await snippet(store(1000), { env: { fee: 2000 } })).committed, true);
  t.match((await snippet(store(2000), { env: { fee: 2000 } })).error, { message: /out of storage gas \(limit 2000/ });
  t.match((await snippet(store(25000), { env: { fee: 1_000_000 } })).error, {
    message: /out of storage gas \(limit 20000/,
  });
  t.equal((await snippet(store(25000))).committed, true, 'fee 0: no storage limit');
});

t.test('strings are shorter than 1 MiB', async (t) => {
  const r = await snippet(
    '10 DIM s AS String\n20 LET s = "0123456789abcdef"\n30 LET s = s + s\n40 IF STRLEN(s) < 1048576 THEN GOTO 30\n50 RETURN 0',
  );
  t.match(r.error, { message: /string longer than 1048575 bytes/, line: 30 });
});

t.test('deep recursion ends in a limit, never in a crash', async (t) => {
  const code = 'Function D(n Uint64) Uint64\n10 IF n == 0 THEN GOTO 30\n20 RETURN D(n - 1)\n30 RETURN 0\nEnd Function';
  t.equal(
    (await source(code, 'D', { args: [{ name: 'n', datatype: 'U', value: 500 }] })).committed,
    true,
    '500 deep is fine',
  );
  const deep = await source(code, 'D', { args: [{ name: 'n', datatype: 'U', value: 1500 }] });
  t.equal(deep.ok, false);
  t.match(deep.error?.message, new RegExp(`nested deeper than ${MAX_CALL_DEPTH}|out of compute gas`));
});

t.test('commit rule', async (t) => {
  const { core } = await dvm();
  const env = { signer: account(core, 3).address, balances: { ['0'.repeat(64)]: 50 } };
  const body = (ret: string) => `10 STORE("x", 1)\n20 SEND_COIN_TO_ADDRESS(SIGNER(), 5)\n30 RETURN ${ret}`;
  const zero = await snippet(body('0'), { env });
  t.match(zero, { ok: true, committed: true, result: '0' });
  t.equal(zero.writes.length, 1);
  t.equal(zero.transfers.length, 1);
  const one = await snippet(body('1'), { env });
  t.match(one, { ok: true, committed: false, result: '1', writes: [], transfers: [] }, 'nonzero: ran, nothing kept');
  const text = await snippet(body('"0"'), { env, returns: 'String' });
  t.match(
    text,
    { ok: true, committed: false, type: 'String', writes: [], transfers: [] },
    'a String result never commits',
  );
  const none = await source('Function V()\n10 STORE("x", 1)\n20 RETURN\nEnd Function', 'V');
  t.match(
    none,
    { ok: true, committed: false, type: null, writes: [] },
    'a function without a return type never commits',
  );
  const panic = await snippet('10 STORE("x", 1)\n20 PANIC()', { env });
  t.match(panic, {
    ok: false,
    committed: false,
    writes: [],
    transfers: [],
    error: { phase: 'run', message: 'PANIC', function: 'F', line: 20 },
  });
});

t.test('errors in nested calls name the innermost function and line', async (t) => {
  const code =
    'Function Outer() Uint64\n10 RETURN inner()\nEnd Function\nFunction inner() Uint64\n5 DIM x AS Uint64\n7 RETURN 1 / x\nEnd Function';
  t.match((await source(code, 'Outer')).error, { message: 'division by zero', function: 'inner', line: 7 });
});
