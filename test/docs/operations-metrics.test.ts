/**
 * Keeps the monitoring docs true: docs/operations.md § Metrics lists exactly the umbra_* metrics a daemon and a wallet
 * server serve, with their types; docs/grafana-dashboard.json is a dashboard Grafana imports (schemaVersion, a
 * `${DS_PROMETHEUS}` datasource input every panel uses, unique panel ids), whose queries name only served metrics and
 * which charts every umbra_* metric.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { loadCore } from '../../core-native/ts/index.js';
import { composeWalletApp } from '../../cli/wallet-app.js';
import { createLogger } from '../../host/logger.js';
import { premineSecret } from '../../protocol/premine.js';
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

const operations = readFileSync(join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');
const dashboard = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'grafana-dashboard.json'), 'utf8'));
const panels: Panel[] = dashboard.panels;
const queried = panels.filter((panel) => panel.type !== 'row');
/** How panels name the datasource chosen at import (Grafana replaces the input's placeholder). */
const INPUT_DATASOURCE = `\${DS_PROMETHEUS}`;
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
    t.equal(panel.datasource?.uid, INPUT_DATASOURCE, `${panel.title}: on the input datasource`);
    t.ok(panel.targets?.length, `${panel.title}: has queries`);
    for (const target of panel.targets ?? []) t.equal(target.datasource.uid, INPUT_DATASOURCE);
  }
});

t.test('operations.md and the dashboard name the metrics that are served', async (t) => {
  const core = await loadCore();
  const daemon = await startTestApp(t, { network: 'simulator' });
  const wallet = testWallet(core, 'simulator', premineSecret(core, 'simulator'), daemon.url);
  const walletApp = await composeWalletApp(wallet, { rpcBind: '127.0.0.1:0', logger: createLogger('error', () => {}) });
  await walletApp.start();
  t.teardown(() => walletApp.stop());
  const walletPort = (walletApp.container.cradle.httpServers.get('wallet')!.address() as AddressInfo).port;
  const families = new Map([
    ...(await scrape(daemon.url)).families,
    ...(await scrape(`http://127.0.0.1:${walletPort}`)).families,
  ]);
  // A labelled histogram is served from its first observation (a transfer's verification): index.test.ts sees it.
  const typeOf = (name: string) =>
    name === 'umbra_tx_verify_seconds' ? 'histogram' : families.get(name)?.type.toLowerCase();
  const served = new Set([...families.keys(), 'umbra_tx_verify_seconds']);

  const documented = [...operations.matchAll(/^\| `(umbra_\w+)` \| (\w+) \|/gm)].map(
    ([, name, type]): [string, string] => [name!, type!],
  );
  t.same(
    documented.map(([name]) => name).sort(),
    [...served].filter((name) => name.startsWith('umbra_')).sort(),
    'operations.md § Metrics lists every umbra_* metric served, and no other',
  );
  for (const [name, type] of documented) t.equal(typeOf(name), type, `${name} is a ${type}`);

  const used = new Set(queried.flatMap((panel) => (panel.targets ?? []).flatMap((target) => metricsIn(target.expr))));
  used.add(familyOf(dashboard.templating.list[0].definition.match(/label_values\((\w+)/)[1]));
  for (const name of used) t.ok(served.has(name), `${name} is served`);
  for (const name of served) if (name.startsWith('umbra_')) t.ok(used.has(name), `${name} is on the dashboard`);
});
