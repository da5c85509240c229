/**
 * `umbra contract test`: the sample contracts' test files pass; a wrong expectation fails with the first difference
 * and exit 1; --gas-report agrees with `contract run`; --json, --match; amounts written as on the command line; a test
 * with unknown keys fails on its own, each key named with a suggestion; a malformed file.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { account, dvm } from '../helpers/dvm.js';

const dir = mkdtempSync(join(tmpdir(), 'umbra-contract-test-'));
const lotteryFile = join(REPO_ROOT, 'examples', 'contracts', 'lottery.bas');

/** Writes a test file next to nothing: the contract is named by its absolute path. */
function testFile(name: string, tests: unknown[]): string {
  const path = join(dir, `${name}.test.json`);
  writeFileSync(path, JSON.stringify({ contracts: { lottery: lotteryFile }, tests }));
  return path;
}

t.test('the sample contracts pass', async (t) => {
  const r = await runCli(['contract', 'test', 'examples/contracts']);
  t.equal(r.code, 0, r.stdout + r.stderr);
  t.notMatch(r.stdout, /\[FAIL\]/);
  for (const name of ['asset', 'exchange', 'lottery', 'nameservice', 'token'])
    t.match(r.stdout, `examples/contracts/${name}.test.json\n  [PASS]`);
  t.match(r.stdout, /\n\d+ tests: \d+ passed, 0 failed\n$/);
});

t.test('a wrong expectation fails with the first difference and exit 1', async (t) => {
  const path = testFile('wrong', [
    {
      name: 'deposits add up',
      steps: [
        { install: 'lottery', signer: '@owner' },
        {
          call: 'Lottery',
          signer: '@alice',
          coinvalue: '45u',
          expect: { store: { deposit_total: 100, deposit_count: 7 } },
        },
      ],
    },
    { name: 'installs', steps: [{ install: 'lottery', signer: '@owner' }] },
  ]);
  const r = await runCli(['contract', 'test', path]);
  t.equal(r.code, 1);
  t.match(r.stdout, '[FAIL] deposits add up (gas: ');
  t.match(r.stdout, 'step 2 (lottery.Lottery): store "deposit_total": expected 100, got 45\n');
  t.match(r.stdout, '[PASS] installs (gas: 101000)');
  t.match(r.stdout, '2 tests: 1 passed, 1 failed');

  const json = await runCli(['contract', 'test', path, '--json']);
  t.equal(json.code, 1);
  const doc = JSON.parse(json.stdout);
  t.match(doc, { ok: false, passed: 1, failed: 1 });
  t.match(doc.tests[0], { name: 'deposits add up', ok: false, failure: /expected 100, got 45/ });

  const only = await runCli(['contract', 'test', path, '--match', 'install']);
  t.equal(only.code, 0, only.stdout);
  t.match(only.stdout, '1 tests: 1 passed, 0 failed');
});

t.test('an unexpected failure and an expected one that does not come are differences', async (t) => {
  const path = testFile('failures', [
    {
      name: 'withdraw too much',
      steps: [
        { install: 'lottery', signer: '@owner' },
        { call: 'Withdraw', signer: '@owner', args: { amount: 5 } },
      ],
    },
    {
      name: 'expects a panic',
      steps: [{ install: 'lottery', signer: '@owner', expect: { error: 'PANIC' } }],
    },
  ]);
  const r = await runCli(['contract', 'test', path]);
  t.equal(r.code, 1);
  t.match(
    r.stdout,
    'step 2 (lottery.Withdraw): expected no failure, but it failed in Withdraw line 20: SEND_COIN_TO_ADDRESS: insufficient coin balance (has 0, sending 5)',
  );
  t.match(r.stdout, 'step 1 (lottery.install): expected a failure (PANIC), but it returned 0');
});

t.test('--gas-report agrees with contract run for the same calls', async (t) => {
  const { core } = await dvm();
  const alice = account(core, 1);
  const path = testFile('gas', [
    {
      name: 'two rounds',
      steps: [
        { install: 'lottery', signer: alice.address },
        { call: 'Lottery', signer: alice.address, coinvalue: 300 },
      ],
    },
  ]);
  const r = await runCli(['contract', 'test', path, '--gas-report', '--json']);
  t.equal(r.code, 0, r.stdout);
  const report = JSON.parse(r.stdout).gasReport as { entrypoint: string; min: number; max: number; calls: number }[];
  const run = await runCli(['contract', 'run', lotteryFile, 'Initialize', '--signer', alice.address]);
  const init = report.find((row) => row.entrypoint === 'Initialize')!;
  const gas = Number(/compute (\d+)/.exec(run.stdout)![1]);
  t.same([init.calls, init.min, init.max], [1, gas, gas]);

  const text = await runCli(['contract', 'test', path, '--gas-report']);
  t.match(
    text.stdout,
    /lottery\.bas — compute gas\n  entry point +calls +min +avg +max\n  Initialize +1 +101000 +101000 +101000\n/,
  );
});

t.test("docs/contracts.md's example test file passes", async (t) => {
  const page = readFileSync(join(REPO_ROOT, 'docs', 'contracts.md'), 'utf8');
  const example = /### The test file\n\n```json\n([\s\S]*?)```/.exec(page)![1]!;
  const docs = mkdtempSync(join(tmpdir(), 'umbra-contract-docs-'));
  copyFileSync(lotteryFile, join(docs, 'lottery.bas'));
  writeFileSync(join(docs, 'example.test.json'), example);
  const r = await runCli(['contract', 'test', docs]);
  t.equal(r.code, 0, r.stdout);
  t.match(r.stdout, '2 tests: 2 passed, 0 failed');
});

t.test('amounts are coins (a JSON number or text) or atomic units with a u suffix', async (t) => {
  const deposit = (coinvalue: unknown, balance: unknown) => ({
    name: `deposit ${JSON.stringify(coinvalue)}`,
    steps: [
      { install: 'lottery', signer: '@owner' },
      { call: 'Lottery', signer: '@alice', coinvalue, expect: { balances: { coin: balance } } },
    ],
  });
  const path = testFile('amounts', [
    deposit(1.5, '150000u'),
    deposit('1.5', 1.5),
    deposit('45u', '0.00045'),
    deposit(0.00001, '1u'),
    deposit('2', 2.0001),
    deposit('1.234567', 1),
    // More digits than a JSON number keeps: a reader would round it.
    deposit(Number('184467440737095.51615'), 1),
  ]);
  const r = await runCli(['contract', 'test', path]);
  t.equal(r.code, 1);
  for (const passing of ['1.5', '"1.5"', '"45u"', '0.00001']) t.match(r.stdout, `[PASS] deposit ${passing} (gas: `);
  t.match(
    r.stdout,
    '[FAIL] deposit "2" (gas: 206600)\n         step 2 (lottery.Lottery): balance of coin: expected 2.00010 UMB (200010 atomic units), got 2.00000 UMB (200000 atomic units)\n',
  );
  t.match(
    r.stdout,
    '[FAIL] deposit "1.234567" (gas: 0)\n         tests[5].steps[1].coinvalue "1.234567" is not an amount: give coins with up to 5 decimals (1.5) or atomic units with a u suffix (150000u)\n',
  );
  t.match(r.stdout, 'tests[6].steps[1].coinvalue has too many digits for a JSON number: write it as text');
  t.match(r.stdout, '7 tests: 4 passed, 3 failed');
});

t.test('unknown keys fail their own test, each named with the nearest known key', async (t) => {
  const path = testFile('typos', [
    {
      name: 'two typos in two steps',
      steps: [
        { install: 'lottery', signer: '@owner', expekt: { result: 0 } },
        { call: 'Lottery', signer: '@alice', coinvalu: '45u', expect: { balance: { coin: '45u' }, comitted: true } },
      ],
    },
    { name: 'a bad value and a typo', steps: [{ install: 'lottery', signer: 5, xyzzy: 1 }] },
    { name: 'installs', steps: [{ install: 'lottery', signer: '@owner' }] },
  ]);
  const r = await runCli(['contract', 'test', path]);
  t.equal(r.code, 1);
  t.match(
    r.stdout,
    [
      '  [FAIL] two typos in two steps (gas: 0)',
      '         tests[0].steps[0] has unknown key "expekt" (did you mean "expect"?)',
      '         tests[0].steps[1] has unknown key "coinvalu" (did you mean "coinvalue"?)',
      '         tests[0].steps[1].expect has unknown key "balance" (did you mean "balances"?)',
      '         tests[0].steps[1].expect has unknown key "comitted" (did you mean "committed"?)',
      '  [FAIL] a bad value and a typo (gas: 0)',
      '         tests[1].steps[0] has unknown key "xyzzy" (known: install, call, contract, args, signer, coinvalue, assets, height, timestamp, txid, blid, fee, expect)',
      '         tests[1].steps[0].signer must be an account (@name) or an address',
      '  [PASS] installs (gas: 101000)',
    ].join('\n'),
    'every test reported on its own',
  );
  t.match(r.stdout, '3 tests: 1 passed, 2 failed');
  const json = JSON.parse((await runCli(['contract', 'test', path, '--json'])).stdout);
  t.match(json.tests[0], { name: 'two typos in two steps', ok: false, failure: /"expekt"[\s\S]*"comitted"/ });
});

t.test('a malformed test file is a failure naming every field at fault', async (t) => {
  const path = join(dir, 'bad.test.json');
  writeFileSync(
    path,
    JSON.stringify({
      contracts: { lottery: { file: lotteryFile, scd: 'aa' }, other: { fil: 'x.bas' } },
      test: [],
    }),
  );
  const r = await runCli(['contract', 'test', path]);
  t.equal(r.code, 1);
  t.match(
    r.stdout,
    [
      '  [FAIL] (the file) (gas: 0)',
      '         the file has unknown key "test" (did you mean "tests"?)',
      '         contracts.lottery has unknown key "scd" (did you mean "scid"?)',
      '         contracts.other has unknown key "fil" (did you mean "file"?)',
      '         contracts.other needs file (the contract source)',
      '         tests must be a non-empty array',
    ].join('\n'),
  );
  const none = await runCli(['contract', 'test', join(dir, 'missing')]);
  t.equal(none.code, 1);
  t.match(none.stderr, 'cannot read');
});
