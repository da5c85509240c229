/**
 * Keeps docs/rpc.md true: every curl example without a placeholder is run against a real `umbra simulator` (its ports
 * swapped for the free ones the test got) and must answer without an error.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { rpcCall } from '../helpers/app.js';
import { REPO_ROOT, startCli } from '../helpers/cli.js';

interface Example {
  port: number;
  path: string;
  body: string;
  method: string;
}

const docs = readFileSync(join(REPO_ROOT, 'docs', 'rpc.md'), 'utf8');
const examples: Example[] = [];
for (const block of docs.matchAll(/```(?:sh)?\n(curl[^`]*?)```/g)) {
  const command = block[1]!.replace(/\\\n\s*/g, ' ');
  const url = /(?:http:\/\/)?127\.0\.0\.1:(\d+)(\/\S*)/.exec(command);
  const data = /-d '([^']*)'/.exec(command);
  const file = /--data-binary @(\S+)/.exec(command);
  if (!url || /<|…|\.\.\./.test(data?.[1] ?? '')) continue;
  const body = data ? data[1]! : readFileSync(join(REPO_ROOT, file![1]!), 'utf8');
  examples.push({ port: Number(url[1]), path: url[2]!, body, method: data ? (JSON.parse(body) as { method: string }).method : 'install_sc' });
}

t.ok(examples.length >= 20, `docs/rpc.md has runnable examples (${examples.length})`);

const home = mkdtempSync(join(tmpdir(), 'umbra-docs-home-'));
const sim = startCli(['simulator', '--wallets', '2', '--rpc-bind', '127.0.0.1:0', '--wallet-rpc-port-base', '0'], { HOME: home });
t.teardown(() => sim.child.kill('SIGKILL'));
const [, daemon] = await sim.waitFor(/daemon RPC (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/, 90_000);
await sim.waitFor(/simulator ready/, 90_000);
const walletUrls = [...sim.log().matchAll(/wallet \d+: \S+ (http:\/\/127\.0\.0\.1:\d+)\/json_rpc/g)].map((m) => m[1]!);
const base = (port: number): string => (port === 20000 ? daemon! : walletUrls[port - 30000]!);

/** Waits until the daemon's pool is empty (automine has mined what the last example sent). */
async function settled(): Promise<void> {
  while ((await rpcCall(daemon!, 'NODE.GetTxPool')).txs.length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
}

// The name the NameToAddress example resolves.
await rpcCall(walletUrls[0]!, 'scinvoke', { scid: '0'.repeat(63) + '1', sc_rpc: [{ name: 'entrypoint', datatype: 'S', value: 'Register' }, { name: 'name', datatype: 'S', value: 'wallet-zero' }], ringsize: 2 });
await settled();

for (const example of examples) {
  t.test(`${example.method} on :${example.port}`, async (t) => {
    const response = await fetch(`${base(example.port)}${example.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: example.body });
    const text = await response.text();
    t.equal(response.status, 200, text);
    const answer = JSON.parse(text) as { error?: unknown };
    t.notOk(answer.error, `no error: ${text.slice(0, 300)}`);
    await settled();
  });
}

t.test('stop', async (t) => {
  sim.child.kill('SIGINT');
  t.equal(await sim.exited, 0);
});
