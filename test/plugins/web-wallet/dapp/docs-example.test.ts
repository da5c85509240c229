/**
 * docs/dapps.md § A complete example runs as printed: its script, with the endpoint's URL set to the test's, runs in
 * Node (which, like a script outside a browser, sends no Origin header) against the endpoint of a real WalletService
 * on a real `umbra simulator`; the test approves every request as the user would, except the payment, which it denies
 * once and approves the second time.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadCore } from '../../../../core-native/ts/index.js';
import { simulatorWalletSecret } from '../../../../cli/simulator-command.js';
import type { DappRequest } from '../../../../plugins/web-wallet/dapp/approvals.js';
import { walletKeys } from '../../../../wallet/wallet-keys.js';
import { REPO_ROOT } from '../../../helpers/cli.js';
import { startWalletSimulator } from '../../../helpers/wallet-simulator.js';
import { serveEndpoint, simulatorWallet } from './dapp-fixture.js';

const page = readFileSync(join(REPO_ROOT, 'docs', 'dapps.md'), 'utf8');
const section = page.slice(page.indexOf('## A complete example'));
const script = /```js\n([\s\S]*?)```/.exec(section)?.[1];
const ENDPOINT_LINE = /^const ENDPOINT = 'ws:\/\/127\.0\.0\.1:PORT\/dapp';$/m;

const core = await loadCore();
const simulator = await startWalletSimulator(t, 'umbra-dapp-docs-', 2);
const { wallet, file } = await simulatorWallet(core, simulator, 0);
t.teardown(() => wallet.close());
const { endpoint, url } = await serveEndpoint(t, core, wallet, file);

/** Runs the page's script against the endpoint; its output once it exits. */
async function runScript(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const file = join(mkdtempSync(join(tmpdir(), 'umbra-dapp-docs-')), 'example.mjs');
  writeFileSync(file, script!.replace(ENDPOINT_LINE, `const ENDPOINT = '${url}';`));
  const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

t.test('the example of docs/dapps.md runs as printed', async (t) => {
  if (!script) throw new Error('docs/dapps.md has no js code block under "## A complete example"');
  t.match(script, ENDPOINT_LINE, 'the example names the endpoint as the test expects');
  t.match(
    script,
    walletKeys(core, 'simulator', simulatorWalletSecret(core, 1)).address,
    'it pays simulator wallet 1, as the page says',
  );

  const seen: DappRequest[] = [];
  let payments = 0;
  endpoint.approvals.onChange(() => {
    for (const request of endpoint.approvals.pending()) {
      if (seen.some(({ id }) => id === request.id)) continue;
      seen.push(request);
      if (request.kind === 'transfer' && payments++ === 0) endpoint.approvals.deny(request.id);
      else void endpoint.approvals.approve(request.id);
    }
  });

  const denied = await runScript();
  t.equal(denied.code, 0, denied.stderr);
  t.match(denied.stdout, `address ${wallet.address}\nsignature `);
  t.match(denied.stdout, /\nyou denied the payment\n$/);
  t.match(
    seen.map(({ kind, origin }) => `${kind} ${origin}`),
    [
      'connect app://docs-example',
      'address app://docs-example',
      'sign app://docs-example',
      'transfer app://docs-example',
    ],
  );

  const paid = await runScript();
  t.equal(paid.code, 0, paid.stderr);
  const txid = /\nsent ([0-9a-f]{64})\n$/.exec(paid.stdout)?.[1];
  t.ok(txid, paid.stdout);
  t.equal(seen.filter(({ kind }) => kind === 'connect').length, 1, 'the second run is not asked to connect again');
  for (;;) {
    const record = await wallet.daemon.getTransaction(txid!);
    if (record.valid_block !== '') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.pass('the payment is mined');
});
