/**
 * docs/wallet.md § Send your first coins, run as a reader would: every command of the walk, in order, in a fresh
 * directory against a real `bin/umbra simulator` (on free ports: the wallet commands are pointed at it with
 * `--daemon-address`, and the questions a reader answers with y are answered by `--yes`). The interactive shell at
 * the end is left to the shell's own pseudo-terminal test.
 */
import t from 'tap';
import { readerShell, scratchCheckout } from './reader-shell.js';
import { shellExamples } from './shell-examples.js';
import { startDocsSimulator } from './simulator.js';

const page = shellExamples('docs/wallet.md').map((example) => example.command);
const walk = page.slice(
  page.indexOf('bin/umbra simulator') + 1,
  page.findIndex((command) => command.startsWith('bin/umbra wallet shell')),
);
const ASKS = ['send', 'call', 'install'];
const OFFLINE = ['create', 'restore', 'address'];

const sim = await startDocsSimulator(15);
t.teardown(() => sim.cli.child.kill('SIGKILL'));
const dir = scratchCheckout();

/** The walk's command as the test runs it: pointed at the test's simulator, the confirmation answered. */
function asRun(command: string): string {
  const verb = /^bin\/umbra wallet (\w+)/.exec(command)?.[1];
  if (verb === undefined || OFFLINE.includes(verb)) return command;
  return `${command} --daemon-address ${sim.daemonUrl}${ASKS.includes(verb) ? ' --yes' : ''}`;
}

const expected: [RegExp, RegExp][] = [
  [/^echo 'a password'/, /^$/],
  [/wallet create --wallet-file me\.wallet/, /^address: +umbt1[a-z0-9]+$/m],
  [/wallet register/, /^registered: umbt1[a-z0-9]+ \(in [\d.]+ s\)$/m],
  [/wallet balance --wallet-file me\.wallet/, /^balance: +0\.00000 UMB \(0 atomic units\)$/m],
  [/wallet status --wallet-file me\.wallet/, /^mode: +private \(proven reads[^)]*\)$[\s\S]*^verified height: +\d+$/m],
  [/^echo 'topic/, /^$/],
  [/wallet restore --wallet-file premine\.wallet/, /^address: +umbt1[a-z0-9]+$/m],
  [/wallet balance --wallet-file premine\.wallet/, /^balance: +[\d.]+ UMB \(\d+ atomic units\)$/m],
  [/wallet address --wallet-file me\.wallet/, /^umbt1[a-z0-9]+$/m],
  [/wallet send "\$\(/, /^sent: +25\.00000 UMB \(2500000 atomic units\)$[\s\S]*^block: +\d+$/m],
  [/wallet balance --wallet-file me\.wallet/, /^balance: +25\.00000 UMB \(2500000 atomic units\)$/m],
  [/wallet history --wallet-file me\.wallet/, /\bin +25\.00000\b/],
  [/wallet call 0{63}1 Register/, /^outcome: +committed$/m],
  [/wallet send firstcoins 1\.5/, /^sent: +1\.50000 UMB \(150000 atomic units\)$/m],
  [/wallet install examples\/contracts\/lottery\.bas/, /^outcome: +committed$/m],
  [/wallet history --out/, /\bout\b[\s\S]*committed/],
];

t.equal(walk.length, expected.length, `the walk has ${expected.length} commands: ${walk.join(' | ')}`);
for (const [i, command] of walk.entries()) {
  t.test(command.slice(0, 120), async (t) => {
    const [shape, answer] = expected[i]!;
    t.match(command, shape, 'the walk’s command, in its place');
    const { stdout } = await readerShell(dir, [asRun(command)]);
    t.match(stdout, answer);
  });
}
