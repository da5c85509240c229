/**
 * `umbra wallet shell` end to end, driven through a pseudo-terminal against a real `umbra simulator`: the prompt,
 * commands and their errors, tab completion, a send confirmed at its prompt, Ctrl-C, history recalled with the up
 * arrow and kept in the history file, and leaving with `exit` and Ctrl-D.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import t from 'tap';
import { loadCore } from '../../../core-native/ts/index.js';
import { simulatorWalletSecret } from '../../../cli/simulator-command.js';
import { premineSecret } from '../../../protocol/premine.js';
import { runCli } from '../../helpers/cli.js';
import { startPtyCli } from '../../helpers/pty.js';
import { startWalletSimulator } from '../../helpers/wallet-simulator.js';

const core = await loadCore();
const simulator = await startWalletSimulator(t, 'umbra-wallet-shell-', 1);
const [premine, receiver] = await Promise.all([
  simulator.restore('premine', premineSecret(core, 'simulator')),
  simulator.restore('wallet0', simulatorWalletSecret(core, 0)),
]);
const sessionFlags = (file: string): string[] => [
  '--wallet-file',
  file,
  '--password-file',
  simulator.passwordFile,
  '--daemon-address',
  simulator.daemonUrl,
];
const addressOf = async (file: string): Promise<string> =>
  (await runCli(['wallet', 'address', ...sessionFlags(file)], undefined, 60_000, simulator.env)).stdout.trim();
const [premineAddress, receiverAddress] = await Promise.all([addressOf(premine), addressOf(receiver)]);
const PROMPT = new RegExp(`umbra \\(${premineAddress.slice(0, 10)}…${premineAddress.slice(-6)}\\) > $`);

const startShell = () => {
  const shell = startPtyCli(['wallet', 'shell', ...sessionFlags(premine)], simulator.env);
  t.teardown(() => shell.kill());
  return shell;
};

t.test('a session: commands, completion, a confirmed send, errors, Ctrl-C, history, exit', async (t) => {
  const shell = startShell();
  await shell.waitFor(PROMPT, 0, 60_000);
  /** Types a line (in chunks, as a person would) and waits for `pattern` and then the next prompt. */
  const enter = async (chunks: string[], pattern: RegExp): Promise<string> => {
    const from = shell.screen().length;
    for (const chunk of chunks) await shell.type(chunk);
    await shell.waitFor(pattern, from, 60_000);
    await shell.waitFor(PROMPT, from, 60_000);
    return shell.screen().slice(from);
  };

  await enter(['balance\r'], /^balance: +\d+\.\d{5} UMB \(\d+ atomic units\)$/m);
  await enter(['address\r'], new RegExp(`^${premineAddress}$`, 'm'));

  const completed = await enter(['bal', '\t', '--js', '\t', '\r'], /^\{"asset":"0{64}","balance":\d+,"height":\d+\}$/m);
  t.match(completed, /balance --json /, 'tab completed the command, then its flag');

  const from = shell.screen().length;
  await shell.type(`send ${receiverAddress} 0.5 --ring 2\r`);
  await shell.waitFor(/^amount: +0\.50000 UMB \(50000 atomic units\)$/m, from, 60_000);
  await shell.waitFor(/Send this transaction\?/, from, 60_000);
  await shell.type('y');
  await shell.type('\r');
  await shell.waitFor(/^sent: +0\.50000 UMB \(50000 atomic units\)$/m, from, 60_000);
  await shell.waitFor(/^block: +\d+$/m, from, 60_000);
  await shell.waitFor(PROMPT, from);
  await enter(['address\r'], new RegExp(`^${premineAddress}$`, 'm'));
  t.pass('after the confirmation, the prompt reads commands again');

  const failed = await enter([`send ${receiverAddress} 1.234567 --yes\r`], /^error: .*not an amount/m);
  t.notMatch(failed, /\n\s+at /, 'no stack trace');
  await enter(['nosuch\r'], /^error: unknown command 'nosuch' \(help lists the commands\)$/m);
  await enter(['balance --bogus\r'], /^error: unknown option '--bogus'$/m);

  const recalled = await enter(['\x1b[A', '\x1b[A', '\x1b[A', '\r'], /^error: .*not an amount/m);
  t.match(recalled, /1\.234567 --yes/, 'the up arrow recalled the failed send');

  const cancelled = await enter(['seed\r', '\x03'], /^error: cancelled: did not show the seed words$/m);
  t.notMatch(cancelled, /[a-z]+( [a-z]+){23}/, 'no seed words shown');
  await enter(['bala', '\x03', 'address\r'], new RegExp(`^${premineAddress}$`, 'm'));
  t.pass('Ctrl-C dropped the half-typed line; the shell goes on');

  await shell.type('exit\r');
  t.equal(await shell.exited, 0, 'exit leaves with status 0');
  const historyFile = `${premine}.history`;
  t.equal(statSync(historyFile).mode & 0o777, 0o600, 'the history file is the owner’s only');
  const lines = readFileSync(historyFile, 'utf8').trimEnd().split('\n');
  t.same(
    lines,
    [
      'balance',
      'balance --json ',
      `send ${receiverAddress} 0.5 --ring 2`,
      'nosuch',
      'balance --bogus',
      `send ${receiverAddress} 1.234567 --yes`,
      'seed',
      'address',
      'exit',
    ],
    'the lines as entered, oldest first, a repeated line kept only where it was last entered',
  );
});

t.test('the next session recalls the saved history; the sync progress bar; Ctrl-D leaves', async (t) => {
  const shell = startShell();
  await shell.waitFor(PROMPT, 0, 60_000);
  let from = shell.screen().length;
  await shell.type('\x1b[A');
  await shell.waitFor(/exit$/, from);
  await shell.type('\x03');

  // 60 new blocks: enough for the progress bar (drawn from 50 blocks on).
  const mined = await fetch(`${simulator.daemonUrl}/json_rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SIMULATOR.Mine', params: { blocks: 60 } }),
  });
  t.match(await mined.json(), { result: { status: 'OK' } }, '60 blocks mined');
  from = shell.screen().length;
  await shell.type('sync\r');
  await shell.waitFor(new RegExp(`history up to date at height \\d+\n${PROMPT.source}`), from, 60_000);
  t.match(
    shell.screen().slice(from),
    /\nsyncing history \[=+\] (\d+)\/\1 blocks\nhistory up to date/,
    'the bar ends on its own line before the result and the next prompt',
  );
  await shell.type('\x04');
  t.equal(await shell.exited, 0, 'Ctrl-D leaves with status 0');
});

t.test('from a pipe: one command per line, no prompt, no history file', async (t) => {
  const lines = ['address', 'balance --json', 'seed', "call 'not hex' Run", 'sedn', 'history --limit 1 --json', ''];
  const run = await runCli(['wallet', 'shell', ...sessionFlags(receiver)], lines.join('\n'), 60_000, simulator.env);
  t.equal(run.code, 0, run.stderr);
  const [address, balance, history] = run.stdout.trimEnd().split('\n');
  t.equal(address, receiverAddress);
  t.match(JSON.parse(balance!), { balance: 850_000 }, 'wallet 0 got the 0.5 sent in the session above');
  t.equal(JSON.parse(history!).entries.length, 1);
  t.match(run.stderr, /^error: no terminal to confirm on: add --yes to show the seed words without asking$/m);
  t.match(run.stderr, /^error: .*not hex/m, 'a quoted argument is one word');
  t.match(
    run.stderr,
    /^error: unknown command 'sedn' \(did you mean send\? help lists the commands\)$/m,
    'a mistyped command is answered with the closest, as the one-shot CLI does',
  );
  t.notOk(existsSync(`${receiver}.history`), 'a script is not the person’s history');
});
