/**
 * Runs, as a reader would in a shell, the quick and deterministic `bin/umbra` examples of the README and
 * docs/wallet.md: trying a contract locally, and restoring the simulator's premine wallet from its published words.
 * (Examples that start servers on the documented fixed ports are covered by rpc-examples.test.ts on free ports.)
 */
import t from 'tap';
import { readerShell, scratchCheckout } from './reader-shell.js';
import { shellExamples } from './shell-examples.js';

/** The simulator premine's address (docs/protocol.md § Networks), which the premine's words must restore. */
const SIMULATOR_PREMINE_ADDRESS = 'umbt1qyk9nk20na7mgu6whzp8tnj2jk725dtspwzctg833v937jzqvn6suqghty4ql';

t.test('README: trying a contract before paying for it', async (t) => {
  const commands = shellExamples('README.md')
    .map((e) => e.command)
    .filter((c) => c.startsWith('bin/umbra contract run'));
  t.equal(commands.length, 1, 'the README shows one `bin/umbra contract run`');
  const { stdout } = await readerShell(scratchCheckout(), commands);
  t.match(stdout, /^returned: +0 \(Uint64\)$/m);
  t.match(stdout, /^committed: yes$/m);
});

t.test('docs/wallet.md: restoring the simulator premine wallet from its words', async (t) => {
  const block = shellExamples('docs/wallet.md').map((e) => e.command);
  const restore = block.slice(
    block.findIndex((c) => c.startsWith('echo ')),
    block.findIndex((c) => c.startsWith('bin/umbra wallet restore --wallet-file premine.wallet')) + 1,
  );
  t.equal(restore.length, 3, 'the words, the password and the restore');
  const { stdout } = await readerShell(scratchCheckout(), restore);
  t.match(stdout, SIMULATOR_PREMINE_ADDRESS);
});
