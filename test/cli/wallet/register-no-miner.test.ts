/**
 * `umbra wallet register` on a fresh testnet whose daemon nobody mines for, through the real CLI: after "waiting for
 * block 1" it says that nobody seems to be mining and how to start a miner, rather than waiting without a word.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { daemonArgs, runCli, startCli, walletFlags } from '../../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'umbra-wallet-no-miner-'));
const env = { HOME: dir };
const passwordFile = join(dir, 'password');
writeFileSync(passwordFile, 'pw\n');

t.test('register on a chain nobody mines: the wait says so, and how to start a miner', async (t) => {
  const daemon = startCli(daemonArgs('testnet', join(dir, 'chain'), '--getwork-bind', ''), env);
  t.teardown(() => daemon.child.kill('SIGKILL'));
  const [, url] = await daemon.waitFor(/daemon RPC listening on (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/);
  const file = join(dir, 'new.wallet');
  const created = await runCli(
    ['wallet', 'create', '--wallet-file', file, '--password-file', passwordFile, '--testnet'],
    undefined,
    60_000,
    env,
  );
  t.equal(created.code, 0, created.stderr);

  const register = startCli(['wallet', 'register', ...walletFlags(file, passwordFile, url!)], env);
  t.teardown(() => register.child.kill('SIGKILL'));
  await register.waitFor(/^registration: waiting for block 1$/m, 60_000);
  const [said] = await register.waitFor(/^registration: the chain has no block after genesis — .*$/m, 30_000);
  t.match(said, /nobody seems to be mining it, and the registration waits in the pool until someone does/);
  t.match(said, /umbra daemon … --mining-threads 1 --mining-address ADDRESS, or umbra miner --daemon-address/);
  t.equal(register.child.exitCode, null, 'it goes on waiting');
});
