/**
 * docs/grafana-dashboard.json: a dashboard Grafana imports (schemaVersion, a `${DS_PROMETHEUS}` datasource input every
 * panel uses, unique panel ids), whose queries name only metrics a daemon and a wallet server really serve, and
 * which charts every umbra_* metric.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { composeWalletApp } from '../../host/cli/wallet-app.js';
import { createLogger } from '../../host/logger.js';
import { premineSecret } from '../../host/protocol/premine.js';
import { startTestApp } from '../helpers/app.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { scrape } from '../helpers/prometheus.js';
import { testWallet } from '../helpers/wallet-app.js';

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: { expr: string; datasource: { uid: string } }[];
}

const dashboard = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'grafana-dashboard.json'), 'utf8'));
const panels: Panel[] = dashboard.panels;
const queried = panels.filter((panel) => panel.type !== 'row');
/** A histogram's or a counter's series name, as its family is named. */
const familyOf = (series: string): string => series.replace(/_(bucket|count|sum)$/, '');
/** The metric names in a PromQL expression (label matchers aside; functions and labels have other prefixes). */
const metricsIn = (expr: string): string[] =>
  [...expr.replace(/\{[^}]*\}/g, ' ').matchAll(/\b(?:umbra|process|nodejs)_\w+/g)].map(([name]) => familyOf(name));

t.test('the dashboard is an importable Grafana dashboard on a Prometheus input', async (t) => {
  t.type(dashboard.schemaVersion, 'number');
  t.ok(dashboard.title && dashboard.uid, 'titled, with a uid');
  t.same(
    dashboard.__inputs.map((input: { name: string; type: string; pluginId: string }) => [
      input.name,
      input.type,
      input.pluginId,
    ]),
    [['DS_PROMETHEUS', 'datasource', 'prometheus']],
  );
  const ids = panels.map((panel) => panel.id);
  t.equal(new Set(ids).size, ids.length, 'panel ids are unique');
  t.ok(queried.length >= 10, `${queried.length} panels with queries`);
  for (const panel of queried) {
    t.equal(panel.datasource?.uid, '${DS_PROMETHEUS}', `${panel.title}: on the input datasource`);
    t.ok(panel.targets?.length, `${panel.title}: has queries`);
    for (const target of panel.targets ?? []) t.equal(target.datasource.uid, '${DS_PROMETHEUS}');
  }
});

t.test('every metric the dashboard queries is served, and every umbra_* metric is charted', async (t) => {
  const core = await loadCore();
  const daemon = await startTestApp(t, { network: 'simulator' });
  const wallet = testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url);
  const walletApp = await composeWalletApp(wallet, { rpcBind: '127.0.0.1:0', logger: createLogger('error', () => {}) });
  await walletApp.start();
  t.teardown(() => walletApp.stop());
  const walletPort = (walletApp.container.cradle.httpServers.get('wallet')!.address() as AddressInfo).port;
  const served = new Set([
    ...(await scrape(daemon.url)).families.keys(),
    ...(await scrape(`http://127.0.0.1:${walletPort}`)).families.keys(),
    // A labelled histogram is served from its first observation (a transfer's verification): index.test.ts sees it.
    'umbra_tx_verify_seconds',
  ]);
  const used = new Set(queried.flatMap((panel) => (panel.targets ?? []).flatMap((target) => metricsIn(target.expr))));
  used.add(familyOf(dashboard.templating.list[0].definition.match(/label_values\((\w+)/)[1]));
  for (const name of used) t.ok(served.has(name), `${name} is served`);
  for (const name of served) if (name.startsWith('umbra_')) t.ok(used.has(name), `${name} is on the dashboard`);
});
