import t from 'tap';
import type { Plugin } from '../../../host/plugin.js';
import { builtInPluginNames, importPlugin } from '../../../host/plugins/catalog.js';
import { orderPlugins } from '../../../host/plugins/order.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const plugin = (name: string, ...requires: string[]): Plugin => ({ name, requires, register() {} });
const names = (plugins: Plugin[]): string[] => plugins.map((p) => p.name);

t.test('dependencies come first, otherwise configured order is kept', async (t) => {
  t.same(names(orderPlugins([plugin('ws', 'http'), plugin('a'), plugin('http')])), ['http', 'ws', 'a']);
  t.same(names(orderPlugins([plugin('c', 'b'), plugin('b', 'a'), plugin('a')])), ['a', 'b', 'c']);
});

t.test('a missing dependency is a clear error', async (t) => {
  t.throws(() => orderPlugins([plugin('rpc-ws', 'rpc-http')]), {
    name: 'PluginLoadError',
    message: "plugin 'rpc-ws' requires 'rpc-http', which is not configured (add it to plugins)",
  });
});

t.test('a cycle is a clear error naming it', async (t) => {
  t.throws(() => orderPlugins([plugin('a', 'b'), plugin('b', 'c'), plugin('c', 'a')]), {
    message: 'plugin dependency cycle: a → b → c → a',
  });
  t.throws(() => orderPlugins([plugin('a', 'a')]), { message: 'plugin dependency cycle: a → a' });
});

t.test('a plugin configured twice is an error', async (t) => {
  t.throws(() => orderPlugins([plugin('a'), plugin('a')]), { message: "plugin 'a' is configured twice" });
});

t.test('importing plugins', async (t) => {
  t.ok(builtInPluginNames().includes('rpc-http'));
  t.equal((await importPlugin('rpc-http')).name, 'rpc-http');
  await t.rejects(importPlugin('teleport'), { name: 'PluginLoadError', message: /unknown plugin 'teleport'/ });
  const dir = mkdtempSync(join(tmpdir(), 'umbra-plugin-'));
  writeFileSync(join(dir, 'good.mjs'), "export default { name: 'extra', requires: [], register() {} };\n");
  writeFileSync(join(dir, 'bad.mjs'), 'export default 42;\n');
  writeFileSync(join(dir, 'broken.mjs'), 'export default {;\n');
  t.equal((await importPlugin(join(dir, 'good.mjs'))).name, 'extra', 'a plugin module given by path');
  await t.rejects(importPlugin(join(dir, 'bad.mjs')), { message: /does not default-export a plugin/ });
  await t.rejects(importPlugin(join(dir, 'broken.mjs')), { message: /cannot load plugin/ });
  await t.rejects(importPlugin(join(dir, 'absent.mjs')), { message: /cannot load plugin/ });
});

const withOptional = (name: string, optional: string[], ...requires: string[]): Plugin => ({
  name,
  requires,
  optional,
  register() {},
});

t.test('a configured optional dependency orders like a required one', async (t) => {
  const plugins = [
    plugin('consensus'),
    withOptional('p2p', ['mempool', 'mining'], 'consensus'),
    plugin('mining', 'consensus'),
  ];
  t.same(names(orderPlugins(plugins)), ['consensus', 'mining', 'p2p']);
  t.throws(() => orderPlugins([withOptional('a', ['b']), withOptional('b', ['a'])]), {
    message: 'plugin dependency cycle: a → b → a',
  });
});

t.test('an optional dependency that is not configured is ignored', async (t) => {
  t.same(names(orderPlugins([withOptional('p2p', ['mempool', 'mining'], 'consensus'), plugin('consensus')])), [
    'consensus',
    'p2p',
  ]);
});

t.test('a plugin module may declare optional dependencies and provided services', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'umbra-plugin-'));
  writeFileSync(
    join(dir, 'full.mjs'),
    "export default { name: 'full', requires: [], optional: ['p2p'], provides: ['txPool'], register() {} };\n",
  );
  writeFileSync(
    join(dir, 'bad-optional.mjs'),
    "export default { name: 'bad', requires: [], optional: 'p2p', register() {} };\n",
  );
  writeFileSync(
    join(dir, 'bad-provides.mjs'),
    "export default { name: 'bad', requires: [], provides: [42], register() {} };\n",
  );
  t.same((await importPlugin(join(dir, 'full.mjs'))).provides, ['txPool']);
  await t.rejects(importPlugin(join(dir, 'bad-optional.mjs')), { message: /does not default-export a plugin/ });
  await t.rejects(importPlugin(join(dir, 'bad-provides.mjs')), { message: /does not default-export a plugin/ });
});
