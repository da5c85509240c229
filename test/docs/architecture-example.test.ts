/**
 * docs/architecture.md's minimal plugin works as printed: its code block, compiled as a reader's plugin would be
 * and loaded by path beside the daemon's plugins, answers NODE.GetHeartbeat.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import ts from 'typescript';
import { DAEMON_PLUGINS } from '../../host/config/defaults.js';
import { rpcCall, startTestApp } from '../helpers/app.js';

const page = readFileSync(fileURLToPath(new URL('../../../docs/architecture.md', import.meta.url)), 'utf8');
const section = page.slice(page.indexOf('### A minimal plugin'));
const source = /```ts\n([\s\S]*?)```/.exec(section)?.[1];

t.test('the minimal plugin of docs/architecture.md loads and answers', async (t) => {
  if (!source) throw new Error('docs/architecture.md has no ts code block under "### A minimal plugin"');
  // The example sits in plugins/<name>/index.ts: its imports of ../../host/ point at the compiled host.
  const compiledHost = new URL('../../host/', import.meta.url).href;
  const javascript = ts
    .transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } })
    .outputText.replaceAll("'../../host/", `'${compiledHost}`);
  const file = join(mkdtempSync(join(tmpdir(), 'umbra-docs-plugin-')), 'heartbeat.mjs');
  writeFileSync(file, javascript);

  const { url, app } = await startTestApp(t, { network: 'simulator', plugins: [...DAEMON_PLUGINS, file] });
  t.ok(
    app.plugins.some((plugin) => plugin.name === 'heartbeat'),
    'the plugin is loaded from its path',
  );
  t.same(await rpcCall(url, 'NODE.GetHeartbeat'), { height: 0, pending: 0 }, 'NODE.GetHeartbeat answers');
});
