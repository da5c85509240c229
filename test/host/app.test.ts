/** composeApp: plugins register in dependency order, and each must register the services it declares. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { composeApp } from '../../host/app.js';
import { loadConfig } from '../../host/config/load.js';
import { createLogger } from '../../host/logger.js';
import { PluginErrorCode } from '../../host/plugins/plugin-error.js';

const quiet = createLogger('error', () => {});
const configFor = (plugins: string[], flags: Record<string, unknown> = {}) =>
  loadConfig({
    flags: {
      network: 'testnet',
      store: 'memory',
      rpcBind: '127.0.0.1:0',
      p2pBind: '',
      transports: [],
      plugins,
      ...flags,
    },
  });

t.test(
  'a plugin that does not register a service it declares fails start-up, naming both; the store is closed',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'umbra-app-'));
    const liar = join(dir, 'liar.mjs');
    writeFileSync(liar, "export default { name: 'liar', requires: [], provides: ['txPool'], register() {} };\n");
    const dataDir = join(dir, 'data');
    await t.rejects(composeApp(configFor([liar], { store: 'rocksdb', dataDir }), { logger: quiet }), {
      name: 'PluginLoadError',
      code: PluginErrorCode.MissingService,
      message: "plugin 'liar' declares that it provides the 'txPool' service but did not register it",
    });
    // RocksDB locks its directory while open: opening it again shows the failed start-up closed it.
    const app = await composeApp(configFor(['dvm'], { store: 'rocksdb', dataDir }), { logger: quiet });
    await app.stop();
  },
);

t.test('with consensus,p2p,mining configured, mining registers before p2p (p2p uses its miniblocks)', async (t) => {
  const app = await composeApp(configFor(['consensus', 'p2p', 'mining']), { logger: quiet });
  t.teardown(() => app.stop());
  t.same(
    app.plugins.map((plugin) => plugin.name),
    ['consensus', 'mining', 'p2p'],
  );
});

t.test('an optional plugin that is not configured is left out', async (t) => {
  const app = await composeApp(configFor(['p2p', 'consensus']), { logger: quiet });
  t.teardown(() => app.stop());
  t.same(
    app.plugins.map((plugin) => plugin.name),
    ['consensus', 'p2p'],
  );
  t.notOk(app.container.hasRegistration('miniblocks'));
});
