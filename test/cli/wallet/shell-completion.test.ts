/** Tab completion in the wallet shell: command names, the names after `help`, and each command's flags. */
import { Command } from 'commander';
import t from 'tap';
import { completable, shellCompleter } from '../../../cli/wallet/shell-completion.js';

const commands = [
  { name: 'balance', flags: ['--asset', '--json', '--help'] },
  { name: 'send', flags: ['--ring', '--yes', '--no-wait', '--asset', '--payload', '--json', '--help'] },
  { name: 'seed', flags: ['--yes', '--json', '--help'] },
];
const complete = shellCompleter(commands, ['help', 'exit']);

t.test('the first word completes to a command name', async (t) => {
  t.same(complete('bal'), [['balance '], 'bal'], 'one match, with its space');
  t.same(complete('se'), [['send', 'seed'], 'se'], 'several: all listed');
  t.same(complete(''), [['balance', 'send', 'seed', 'help', 'exit'], ''], 'nothing typed: every command');
  t.same(complete('  ex'), [['exit '], 'ex'], 'leading blanks do not count');
  t.same(complete('zz'), [[], 'zz']);
});

t.test('the word after help completes to a command name', async (t) => {
  t.same(complete('help ba'), [['balance '], 'ba']);
  t.same(complete('help balance '), [[], ''], 'help takes one command');
});

t.test("a word starting with - completes to the command's flags", async (t) => {
  t.same(complete('send umbs1abc 1 --r'), [['--ring '], '--r']);
  t.same(complete('send --a'), [['--asset '], '--a']);
  t.same(complete('seed --'), [['--yes', '--json', '--help'], '--']);
  t.same(complete('balance --asset'), [['--asset '], '--asset']);
  t.same(complete('nosuch --a'), [[], '--a'], 'an unknown command has no flags');
});

t.test('an argument that is not a flag has no completion', async (t) => {
  t.same(complete('send um'), [[], 'um']);
  t.same(complete('send '), [[], '']);
});

t.test("a commander command's long flags, and --help", async (t) => {
  const command = new Command('send').option('-r, --ring <n>').option('--no-wait').argument('<destination>');
  t.same(completable(command), { name: 'send', flags: ['--ring', '--no-wait', '--help'] });
});
