/**
 * `umbra contract run`: the command-line form, the JSON form, amounts written as everywhere on the command line, and
 * bad input (exit 1, one clear line — or one JSON document with --json).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runCli } from '../helpers/cli.js';
import { account, COIN_HEX, dvm, sampleContract } from '../helpers/dvm.js';

const dir = mkdtempSync(join(tmpdir(), 'umbra-contract-'));
const lottery = join(dir, 'lottery.bas');
writeFileSync(lottery, sampleContract('lottery'));

t.test('command-line form: Initialize, then a play from a given store', async (t) => {
  const { core } = await dvm();
  const alice = account(core, 1);
  const init = await runCli(['contract', 'run', lottery, 'Initialize', '--signer', alice.address]);
  t.equal(init.code, 0, init.stderr);
  t.match(init.stdout, /returned:  0 \(Uint64\)\ncommitted: yes\n/);
  t.match(init.stdout, /write:     S "lotterygiveback" = U 9900/);

  const store = join(dir, 'store.json');
  writeFileSync(
    store,
    JSON.stringify([
      { ktype: 'S', key: 'lotteryeveryXdeposit', vtype: 'U', value: 1 },
      { ktype: 'S', key: 'lotterygiveback', vtype: 'U', value: 5000 },
      { ktype: 'S', key: 'deposit_count', vtype: 'U', value: 0 },
      { ktype: 'S', key: 'deposit_total', vtype: 'U', value: 0 },
    ]),
  );
  const play = await runCli([
    'contract',
    'run',
    lottery,
    'Lottery',
    '--signer',
    alice.address,
    '--coinvalue',
    '3',
    '--store',
    store,
  ]);
  t.equal(play.code, 0, play.stderr);
  t.match(play.stdout, `transfer:  1.50000 UMB (150000 atomic units) to ${alice.address}`);
});

t.test('amount flags take coins or atomic units with a u suffix; a bad one names its flag', async (t) => {
  const file = join(dir, 'deposit.bas');
  writeFileSync(file, 'Function Paid(value Uint64) Uint64\n10 RETURN value\nEnd Function\n');
  for (const [flag, expected] of [
    ['0.5', '50000'],
    ['2', '200000'],
    ['0.00001', '1'],
    ['250u', '250'],
  ]) {
    const r = await runCli(['contract', 'run', file, 'Paid', '--coinvalue', flag!]);
    t.equal(r.code, 0, r.stderr);
    t.match(r.stdout, `returned:  ${expected} (Uint64)`, `--coinvalue ${flag}`);
  }
  const bad: [string[], RegExp][] = [
    [
      ['--coinvalue', '0.5x'],
      /^umbra: --coinvalue "0\.5x" is not an amount: give coins with up to 5 decimals \(1\.5\) or atomic units with a u suffix \(150000u\)\n$/,
    ],
    [['--coinvalue', '1.234567'], /^umbra: --coinvalue "1\.234567" is not an amount/],
    [['--fee', '-1'], /^umbra: --fee "-1" is not an amount/],
    [['--balance', 'coin=abc'], /^umbra: --balance coin "abc" is not an amount/],
    [['--asset', `${'11'.repeat(32)}=1e5`], /^umbra: --asset 1{64} "1e5" is not an amount/],
  ];
  for (const [flags, message] of bad) {
    const r = await runCli(['contract', 'run', file, 'Paid', ...flags]);
    t.equal(r.code, 1, flags.join(' '));
    t.match(r.stderr, message);
    t.notMatch(r.stderr, /env\./, 'no internal field named');
    const json = await runCli(['contract', 'run', '--json', file, 'Paid', ...flags]);
    t.equal(json.code, 1, `${flags.join(' ')} --json`);
    t.match(JSON.parse(json.stdout), { ok: false, error: { phase: 'request', message: /is not an amount/ } });
  }
  const help = (await runCli(['contract', 'run', '--help'])).stdout.replace(/\s+/g, ' ');
  for (const flag of ['--coinvalue', '--asset', '--balance', '--fee'])
    t.match(help, new RegExp(`${flag} <[^>]+> [^-]*coins`), `${flag} says how to write it`);
});

t.test('arguments are checked against the entry point: missing, unknown (with a suggestion), value', async (t) => {
  const cases: [string[], RegExp][] = [
    [
      ['Withdraw'],
      /missing argument amount \(Uint64\): give amount=VALUE; the parameters of Withdraw: amount \(Uint64\)/,
    ],
    [['Withdraw', 'amout=5'], /unknown argument amout \(did you mean amount\?\); missing argument amount/],
    [
      ['TuneLotteryParameters', 'input=1', 'lotteryeveryXdeposits=3', 'lotterygiveback=9000'],
      /unknown argument lotteryeveryXdeposits \(did you mean lotteryeveryXdeposit\?\); missing argument lotteryeveryXdeposit \(Uint64\)/,
    ],
    [['Lottery', 'value=5'], /Lottery's value is the coin deposited with the call: give it with --coinvalue/],
  ];
  for (const [args, message] of cases) {
    const text = await runCli(['contract', 'run', lottery, ...args]);
    t.equal(text.code, 1, args.join(' '));
    t.match(text.stderr, message);
    const json = await runCli(['contract', 'run', '--json', lottery, ...args]);
    t.equal(json.code, 1, `${args.join(' ')} --json: a usage error exits non-zero`);
    t.equal(json.stderr, '');
    t.match(JSON.parse(json.stdout), { ok: false, error: { phase: 'request', message } });
  }
});

t.test('arguments are typed from the parameters, or explicitly', async (t) => {
  const file = join(dir, 'args.bas');
  writeFileSync(file, 'Function Echo(n Uint64, s String) String\n10 RETURN s + ":" + n\nEnd Function\n');
  const r = await runCli(['contract', 'run', file, 'Echo', 'n=42', 's=hello world']);
  t.match(r.stdout, /returned:  hello world:42 \(String\)/);
  const explicit = await runCli(['contract', 'run', file, 'Echo', 'n:U=7', 's:S=7']);
  t.match(explicit.stdout, /returned:  7:7 \(String\)/);
});

t.test('a failing call prints where and exits 2', async (t) => {
  const file = join(dir, 'panic.bas');
  writeFileSync(file, 'Function Boom() Uint64\n10 STORE("x", 1)\n20 PANIC()\nEnd Function\n');
  const r = await runCli(['contract', 'run', file, 'Boom']);
  t.equal(r.code, 2);
  t.match(r.stdout, /failed in Boom line 20: PANIC\ncommitted: no/);
});

t.test('JSON form: request on stdin, response on stdout', async (t) => {
  const { core } = await dvm();
  const bob = account(core, 2);
  const request = {
    code: sampleContract('lottery'),
    entrypoint: 'Initialize',
    env: { signer: bob.address, height: 5, timestamp: 1000 },
  };
  const r = await runCli(['contract', 'run', '--json'], JSON.stringify(request));
  t.equal(r.code, 0, r.stderr);
  const response = JSON.parse(r.stdout);
  t.match(response, { ok: true, committed: true, type: 'Uint64', result: '0', error: null, transfers: [] });
  t.same(response.writes[0], { ktype: 'S', key: 'owner', vtype: 'S', value: bob.rawHex, encoding: 'hex' });
  t.equal(
    response.gas.compute,
    8 * 5000 + 5000 + 1000 + 5 * 10000 + 5000,
    '8 lines, EXISTS, VERSION, 5 STOREs, SIGNER',
  );
  const install = JSON.parse(
    (await runCli(['contract', 'run', '--json'], JSON.stringify({ code: 'Function F(', entrypoint: 'F' }))).stdout,
  );
  t.match(install, { ok: false, committed: false, error: { phase: 'install', line: 1 } });
});

t.test('bad input: one clear line and exit 1', async (t) => {
  const cases: [string[], RegExp][] = [
    [['contract', 'run', join(dir, 'missing.bas'), 'F'], /cannot read contract file .*missing\.bas: ENOENT/],
    [['contract', 'run', lottery, 'Nope'], /the contract has no function Nope \(entry points: Initialize, Lottery/],
    [['contract', 'run', lottery, 'isOwner'], /isOwner is private/],
    [['contract', 'run', lottery, 'Initialize', '--signer', 'umbt1bad'], /env\.signer: /],
    [['contract', 'run'], /give a contract file and an entry point/],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(args);
    t.equal(r.code, 1, args.join(' '));
    t.match(r.stderr, message);
    t.notMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});

t.test('with --json every outcome is one JSON document on stdout, bad input included', async (t) => {
  const cases: [string[], string | undefined, RegExp][] = [
    [['contract', 'run', '--json'], '{not json', /stdin is not valid JSON/],
    [['contract', 'run', '--json'], '{"entrypoint":"F"}', /code must be the contract source/],
    [
      ['contract', 'run', '--json'],
      JSON.stringify({ code: 'x', entrypoint: 'F', args: [{ name: 'a', datatype: 'Q', value: 1 }] }),
      /unknown datatype "Q"/,
    ],
    [
      ['contract', 'run', '--json'],
      JSON.stringify({ code: 'x', entrypoint: 'F', env: { scid: 'zz' } }),
      /env\.scid must be 64 hex/,
    ],
    [
      ['contract', 'run', '--json'],
      JSON.stringify({ code: 'x', entrypoint: 'F', store: [{ ktype: 'X' }] }),
      /store\[0\]\.key: type must be "S" or "U"/,
    ],
    [['contract', 'run', '--json', lottery, 'isOwner'], undefined, /isOwner is private/],
    [['contract', 'run', '--json', lottery, 'Nope'], undefined, /has no function Nope/],
    [['contract', 'run', '--json', join(dir, 'missing.bas'), 'F'], undefined, /cannot read contract file/],
    [['contract', 'run', '--json', lottery, 'Lottery', 'value'], undefined, /must be NAME=VALUE/],
  ];
  for (const [args, stdin, message] of cases) {
    const r = await runCli(args, stdin);
    t.equal(r.code, 1, args.join(' '));
    t.equal(r.stderr, '');
    const answer = JSON.parse(r.stdout);
    t.match(answer, { ok: false, error: { phase: 'request', message } });
  }
  const file = join(dir, 'broken.bas');
  writeFileSync(file, 'Function F() Uint64\n10 RETURN\nEnd Function\n');
  const compile = await runCli(['contract', 'run', '--json', file, 'F']);
  t.equal(compile.code, 2, 'a contract that fails exits 2, as without --json');
  t.match(JSON.parse(compile.stdout), { ok: false, error: { phase: 'install', function: 'F' } });
  const usage = await runCli(['contract', 'run', '--json', lottery, 'Lottery', '--bogus']);
  t.equal(usage.code, 1, 'a command line commander refuses');
  t.equal(usage.stderr, '');
  t.match(JSON.parse(usage.stdout), { ok: false, error: { code: 'cli.usage', message: "unknown option '--bogus'" } });
});

t.test('--state keeps the store, balances and height from run to run; --reset starts afresh', async (t) => {
  const { core } = await dvm();
  const [alice, bob] = [account(core, 1), account(core, 2)];
  const state = join(dir, 'lottery-state.json');
  const play = (...args: string[]) => runCli(['contract', 'run', lottery, ...args, '--state', state]);
  const init = await play('Initialize', '--signer', alice.address);
  t.equal(init.code, 0, init.stderr);
  t.match(init.stdout, 'state:     ' + state + ', block height 1');
  t.match((await play('Lottery', '--signer', alice.address, '--coinvalue', '45u')).stdout, 'block height 2');
  const win = await play('Lottery', '--signer', bob.address, '--coinvalue', '55u', '--json');
  const response = JSON.parse(win.stdout);
  t.equal(response.transfers.length, 1, 'the second deposit of the round pays a winner');
  t.equal(response.transfers[0].amount, 99);
  const saved = JSON.parse(readFileSync(state, 'utf8'));
  t.match(saved, { height: '3', balances: { [COIN_HEX]: '1' } });
  t.match(
    saved.store.find((e: { key: string }) => e.key === 'deposit_count'),
    { value: 0 },
  );
  const again = await play('Initialize', '--signer', bob.address);
  t.match(again.stdout, /returned:  1 \(Uint64\)/, 'installed once: the kept owner stays');
  const reset = await play('Initialize', '--signer', bob.address, '--reset');
  t.match(reset.stdout, /returned:  0 \(Uint64\)[\s\S]*block height 1/);
  const mixed = await play('Lottery', '--balance', 'coin=5u');
  t.equal(mixed.code, 1);
  t.match(mixed.stderr, /--state keeps the store and balances itself/);
});
