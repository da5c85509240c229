/**
 * The settings and asset routes of the web wallet's API, served for a private-mode wallet (its headers checked, its
 * reads proven) on a real `umbra simulator`: a daemon named on the settings page is used only once it answers, is on
 * the wallet's network and serves the chain the wallet verified — one that is away, on another network or lying about
 * its headers is refused with why, and the old one stays; an honest one takes over the sync and is kept in the wallet
 * file. Bad input gets a clear 400.
 */
import { join } from 'node:path';
import t from 'tap';
import { simulatorWalletSecret } from '../../../cli/simulator-command.js';
import { loadCore } from '../../../core-native/ts/index.js';
import { readKeptSettings } from '../../../plugins/web-wallet/kept-settings.js';
import { ProvenAccess } from '../../../wallet/chain-access/proven-access.js';
import { DaemonClient } from '../../../wallet/daemon-client.js';
import { headerFilePath } from '../../../wallet/light-client/header-file.js';
import { LightClient } from '../../../wallet/light-client/light-client.js';
import { WalletFile } from '../../../wallet/wallet-file.js';
import { keyContents, walletKeys } from '../../../wallet/wallet-keys.js';
import { WalletService } from '../../../wallet/wallet-service.js';
import { startRecordingProxy } from '../../helpers/recording-proxy.js';
import { TEST_BALANCE_TABLE_DIR } from '../../helpers/wallet-app.js';
import { startWalletSimulator } from '../../helpers/wallet-simulator.js';
import { openWebSession, serveWebWallet } from './web-session.js';

/** Cheap key derivation: the file's strength is not under test. */
const TEST_SCRYPT = { N: 1 << 10, r: 8, p: 1 };

t.test('the settings page moves the wallet to a checked daemon only', async (t) => {
  const simulator = await startWalletSimulator(t, 'umbra-web-settings-', 2);
  const core = await loadCore();
  const keys = walletKeys(core, 'simulator', simulatorWalletSecret(core, 0));
  const path = join(simulator.dir, 'web-settings.wallet');
  const file = await WalletFile.create(path, 'pw', keyContents(keys), TEST_SCRYPT);
  const daemon = new DaemonClient(simulator.daemonUrl);
  const light = LightClient.open({ core, network: 'simulator', path: headerFilePath(path) });
  const access = new ProvenAccess({ core, keys, daemon, mode: 'private', light });
  const wallet = new WalletService({ core, keys, daemon, access, balanceTableDir: TEST_BALANCE_TABLE_DIR, file });
  await wallet.sync();
  const origin = new URL(simulator.daemonUrl).origin;
  const [honest, otherNetwork, liar] = await Promise.all([
    startRecordingProxy(origin),
    startRecordingProxy(origin),
    startRecordingProxy(origin),
  ]);
  otherNetwork.lie = {
    answer: (call, result) => (call.method === 'NODE.GetInfo' ? { ...result, network: 'mainnet' } : undefined),
  };
  liar.lie = {
    answer: (call, result) =>
      call.method === 'NODE.GetHeaders'
        ? { ...result, headers: result.headers.map((header: object) => ({ ...header, hash: 'ab'.repeat(32) })) }
        : undefined,
  };
  t.teardown(() => Promise.all([honest, otherNetwork, liar].map((proxy) => proxy.close())));
  const link = await serveWebWallet(t, wallet);
  const { api } = await openWebSession(link);
  const first = (await api('settings')).body;
  t.match(first, { daemon: daemon.url, sendDaemon: null, kept: true });

  await t.test('bad input is refused with why', async (t) => {
    const refusals: [unknown, RegExp][] = [
      [{}, /give the daemon or the send daemon/],
      [{ daemon: '' }, /daemon must be host:port or an http\(s\) URL/],
      [{ daemon: 'http://[nonsense' }, /daemon address must be host:port or an http\(s\) URL/],
      [{ sendDaemon: honest.url }, /no daemon of its own to send through/],
    ];
    for (const [body, message] of refusals) {
      const answer = await api('settings/daemon', body);
      t.equal(answer.status, 400, JSON.stringify(body));
      t.match(answer.body.error, message);
    }
    t.match(await api('settings', { ring: 3 }), { status: 400, body: { error: /ring size must be one of/ } });
    t.match(await api('assets/token', { scid: 'xyz', label: 'Mine' }), { status: 400, body: { error: /SCID/ } });
    t.match(await api('assets/token', { scid: 'ab'.repeat(32), label: 'umb' }), {
      status: 400,
      body: { error: /UMB names the native coin only/ },
    });
    t.match(await api('send/preview', { destination: keys.address, scid: 'zz', amount: '1', ring: 2 }), {
      status: 400,
      body: { error: /the asset is a SCID/ },
    });
  });

  await t.test('a daemon away, on another network or lying is refused; the old one stays', async (t) => {
    const refusals: [string, RegExp][] = [
      ['127.0.0.1:9', /cannot reach the daemon/],
      [otherNetwork.url, /is on mainnet, not simulator/],
      [liar.url, /whose id is not abab/],
    ];
    for (const [address, message] of refusals) {
      const answer = await api('settings/daemon', { daemon: address });
      t.equal(answer.status, 400, address);
      t.match(answer.body.error, message);
      t.match(answer.body.error, `The wallet stays on ${daemon.url}`);
      t.equal(wallet.daemon.url, daemon.url, `${address}: the old daemon is still used`);
    }
    t.equal(readKeptSettings(file.contents).daemon, undefined, 'nothing is kept');
  });

  await t.test('an honest daemon takes over the sync and is kept', async (t) => {
    const answer = await api('settings/daemon', { daemon: honest.url });
    t.equal(answer.status, 200, answer.body.error);
    t.equal(answer.body.daemon, `${honest.url}/json_rpc`);
    t.equal(wallet.daemon.url, `${honest.url}/json_rpc`);
    const asked = honest.bodies.length;
    await wallet.sync();
    t.ok(honest.bodies.length > asked, 'the sync asks the new daemon');
    t.equal(readKeptSettings(file.contents).daemon, honest.url, 'kept in the wallet file for the next start');
    t.match(await api('settings', { ring: 32 }), { status: 200, body: { ring: 32 } });
    t.equal(readKeptSettings(file.contents).ring, 32, 'the default ring is kept too');
    t.match((await api('overview')).body, { daemon: `${honest.url}/json_rpc` });
  });
});
