/** Statements, operators, precedence, types and control flow of contract BASIC (docs/contracts.md § The language). */
import t from 'tap';
import { evaluate, snippet, source } from '../../helpers/dvm-snippet.js';

const MAX = 18446744073709551615n;

t.test('Uint64 arithmetic wraps modulo 2^64', async (t) => {
  const cases: [string, bigint][] = [
    ['3 - 5', MAX - 1n],
    [`${MAX} + 2`, 1n],
    ['4294967296 * 4294967296', 0n],
    ['7 / 2', 3n],
    ['7 % 4', 3n],
    ['6 & 3', 2n],
    ['6 | 3', 7n],
    ['6 ^ 3', 5n],
    ['6 &^ 3', 4n],
    ['1 << 63', 1n << 63n],
    ['1 << 64', 0n],
    ['255 >> 4', 15n],
    ['5 >> 200', 0n],
    ['!0', MAX],
    ['!1', MAX - 1n],
    ['^5', MAX - 5n],
    ['0x10 + 0o10 + 0b10 + 1_000', 16n + 8n + 2n + 1000n],
    ['010', 10n],
  ];
  for (const [expr, expected] of cases) {
    const r = await evaluate(expr);
    t.equal(r.result, expected.toString(), expr);
  }
});

t.test('comparisons and logic give 1 or 0, with Go precedence', async (t) => {
  const cases: [string, string][] = [
    ['3 > 2', '1'],
    ['3 >= 3', '1'],
    ['2 < 2', '0'],
    ['2 <= 2', '1'],
    ['2 == 2', '1'],
    ['2 != 2', '0'],
    ['2 <> 3', '1'],
    ['1 | 2 == 2', '0'], // (1|2) == 2
    ['6 & 3 == 2', '1'], // (6&3) == 2
    ['2 + 3 << 1', '8'], // 2 + (3<<1)
    ['3 > 2 > 1', '0'], // (3>2) > 1
    ['2 + 3 * 4', '14'],
    ['(2 + 3) * 4', '20'],
    ['10 - 4 - 3', '3'],
    ['1 && 0', '0'],
    ['1 && 2', '1'],
    ['0 || 0', '0'],
    ['0 || 7', '1'],
    ['1 || 0 && 0', '1'], // && binds tighter
    ['"a" == "a"', '1'],
    ['"a" != "b"', '1'],
    ['"a" && ""', '0'],
    ['"a" || ""', '1'],
    ['!""', '1'],
    ['!"x"', '0'],
  ];
  for (const [expr, expected] of cases) t.equal((await evaluate(expr)).result, expected, expr);
});

t.test('two-character operators work in LET (the reference rejects them there)', async (t) => {
  const r = await snippet('10 DIM x AS Uint64\n20 LET x = 1 == 1\n30 LET x = x << 3\n40 RETURN x');
  t.equal(r.result, '8');
});

t.test('strings: concatenation with strings and numbers, literals and escapes', async (t) => {
  t.equal((await evaluate('"id" + 42', 'String')).result, 'id42');
  t.equal((await evaluate('42 + "id"', 'String')).result, '42id');
  t.equal((await evaluate('"x" + 1 + 2', 'String')).result, 'x12');
  t.equal((await evaluate('"a\\tb\\x41\\101\\u00e9"', 'String')).result, 'a\tbAAé');
  t.equal((await evaluate('`raw\\n`', 'String')).result, 'raw\\n');
  t.equal((await evaluate('"p == q <> r"', 'String')).result, 'p == q <> r', 'literals are never rewritten');
  t.equal((await evaluate('"é"', 'String')).result, 'é');
  for (const bad of ['"a" - 1', '"a" == 1', '"a" < "b"', '1 == "1"', '^"a"']) {
    const r = await evaluate(bad);
    t.equal(r.ok, false, `${bad} fails`);
    t.match(r.error?.message, /does not apply/);
  }
});

t.test('division and modulo by zero fail', async (t) => {
  t.match((await evaluate('1 / 0')).error, { phase: 'run', message: 'division by zero', function: 'F', line: 10 });
  t.match((await evaluate('1 % 0')).error, { message: 'modulo by zero' });
});

t.test('DIM, LET, GOTO, IF/ELSE and fall-through', async (t) => {
  const loop = await snippet(
    [
      '10 DIM i, sum AS Uint64',
      '20 DIM s AS String',
      '30 LET i = i + 1',
      '40 LET sum = sum + i',
      '50 IF i < 10 THEN GOTO 30',
      '60 LET s = "sum=" + sum',
      '70 IF s == "sum=55" THEN GOTO 90 ELSE GOTO 80',
      '80 RETURN 0',
      '90 RETURN 1',
    ].join('\n'),
  );
  t.equal(loop.result, '1');
  t.equal((await snippet('10 DIM a, b AS Uint64\n20 RETURN a + b')).result, '0', 'DIM starts at 0');
  t.equal((await snippet('10 DIM s AS String\n20 RETURN s', { returns: 'String' })).result, '', 'DIM starts at ""');
  t.equal(
    (await snippet('10 GOTO 30\n20 RETURN 1\n30\n40 RETURN 2')).result,
    '2',
    'a jump to an empty line falls through',
  );
  t.equal((await snippet('10 IF 0 THEN GOTO 30\n20 RETURN 1\n30 RETURN 2')).result, '1');
  t.equal(
    (await snippet('10 if(1==1)then goto 30\n20 RETURN 1\n30 RETURN 2')).result,
    '2',
    'keywords in any case, tokens glued',
  );
  t.equal(
    (await snippet('10 PRINT whatever + you + like\n20 PRINTF "x"\n30 RETURN 3')).result,
    '3',
    'PRINT is a no-op',
  );
});

t.test('run-time statement errors', async (t) => {
  t.match((await snippet('10 DIM a AS Uint64\n20 DIM a AS Uint64\n30 RETURN 0')).error, {
    message: /already declared/,
    line: 20,
  });
  t.match(
    (await snippet('10 DIM a AS Uint64\n20 GOTO 10')).error,
    { message: /already declared/, line: 10 },
    'a loop over a DIM',
  );
  t.match((await snippet('10 LET a = 1\n20 DIM a AS Uint64\n30 RETURN a')).error, {
    message: /before its DIM/,
    line: 10,
  });
  t.match((await snippet('10 DIM a AS Uint64\n20 LET a = "x"\n30 RETURN a')).error, {
    message: /a is a Uint64, the value is String/,
  });
  t.match((await snippet('10 IF "x" THEN GOTO 20\n20 RETURN 0')).error, { message: /condition must be a Uint64/ });
  t.match((await snippet('10 RETURN "x"')).error, { message: /must return a Uint64, got String/ });
  t.match((await snippet('10 DIM a AS Uint64')).error, { message: /ran past the last line \(10\)/ });
});

t.test('functions: calls, recursion, typed parameters, void functions, private helpers', async (t) => {
  const code = [
    'Function Fact(n Uint64) Uint64',
    '10 IF n <= 1 THEN GOTO 30',
    '20 RETURN n * Fact(n - 1)',
    '30 RETURN 1',
    'End Function',
    'Function greet(name String) String',
    '10 RETURN "hello " + name',
    'End Function',
    'Function Greet(who String) String',
    '10 RETURN greet(who)',
    'End Function',
    'Function touch()',
    '10 MAPSTORE("t", 1)',
    '20 RETURN',
    'End Function',
    'Function UseVoid() Uint64',
    '10 touch()',
    '20 RETURN MAPGET("t")',
    'End Function',
    'Function BadVoid() Uint64',
    '10 RETURN touch() + 1',
    'End Function',
    'Function BadArg() Uint64',
    '10 RETURN Fact("x")',
    'End Function',
  ].join('\n');
  t.equal(
    (await source(code, 'Fact', { args: [{ name: 'n', datatype: 'U', value: 20 }] })).result,
    '2432902008176640000',
  );
  t.equal((await source(code, 'Greet', { args: [{ name: 'who', datatype: 'S', value: 'bob' }] })).result, 'hello bob');
  t.equal((await source(code, 'UseVoid')).result, '1');
  t.match((await source(code, 'BadVoid')).error, { message: /no value/ });
  t.match((await source(code, 'BadArg')).error, { message: /parameter n must be a Uint64, got String/ });
  t.equal(
    (await source(code, 'Fact', { args: [{ name: 'n', datatype: 'U', value: 300 }] })).ok,
    true,
    'recursion 300 deep',
  );
});

t.test(
  'entry points: exported names only, parameters bound by name and datatype, value is the coin deposit',
  async (t) => {
    const code = [
      'Function Pay(value Uint64, n Uint64, s String, h String) String',
      '10 RETURN ITOA(value) + "/" + ITOA(n) + "/" + s + "/" + HEX(h)',
      'End Function',
      'Function hidden() Uint64',
      '10 RETURN 0',
      'End Function',
    ].join('\n');
    const args = [
      { name: 'n', datatype: 'U' as const, value: 7 },
      { name: 's', datatype: 'S' as const, value: 'text' },
      { name: 'h', datatype: 'H' as const, value: 'ab'.repeat(32) },
      { name: 'value', datatype: 'U' as const, value: 999 },
    ];
    const r = await source(code, 'Pay', { args, env: { coinvalue: 5 } });
    t.equal(
      r.result,
      `5/7/text/${'ab'.repeat(32)}`,
      'value is the deposit, not the argument; H arrives as 32 raw bytes',
    );
    const missing = await source(code, 'Pay', { args: args.slice(1) });
    t.match(missing.error, { message: /parameter n \(Uint64\) needs an argument n of datatype U/ });
    const wrongType = await source(code, 'Pay', { args: [{ name: 'n', datatype: 'S', value: '7' }, ...args.slice(1)] });
    t.equal(wrongType.ok, false, 'an S argument does not bind to a Uint64 parameter');
    await t.rejects(
      source(code, 'hidden'),
      /hidden is private/,
      'the runner refuses a private function as entry point',
    );
  },
);

t.test('comments: apostrophe, //, /* */, REM as a whole word, and identifiers starting with REM', async (t) => {
  const code = [
    '/* a block',
    "   comment */ Function F() Uint64 ' trailing",
    '10 DIM REMAINDER AS Uint64 // not a comment',
    '20 LET REMAINDER = 5 REM set it',
    '30 RETURN REMAINDER ; done',
    'End Function',
  ].join('\n');
  t.equal((await source(code, 'F')).result, '5');
});
