/** `umbra contract run`: the command-line form, the JSON form, and bad input (exit 1, one clear line). */
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
    '300',
    '--store',
    store,
  ]);
  t.equal(play.code, 0, play.stderr);
  t.match(play.stdout, `transfer:  150 of coin to ${alice.address}`);
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
  t.equal(compile.code, 0, 'the response says what happened');
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
  t.match((await play('Lottery', '--signer', alice.address, '--coinvalue', '45')).stdout, 'block height 2');
  const win = await play('Lottery', '--signer', bob.address, '--coinvalue', '55', '--json');
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
  const mixed = await play('Lottery', '--balance', 'coin=5');
  t.equal(mixed.code, 1);
  t.match(mixed.stderr, /--state keeps the store and balances itself/);
});
