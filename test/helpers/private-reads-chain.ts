/**
 * A real simulator daemon for private-read tests: 20 accounts registered in block 1, then blocks mined by the wallet
 * (the first account) and by another, so the wallet's range changes in some blocks and not in others; a recording
 * proxy in front of it, and a light client that verified the chain through the proxy.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import type { Core } from '../../core-native/ts/core.js';
import { loadCore } from '../../core-native/ts/index.js';
import { encodeAddress } from '../../protocol/address.js';
import { toHex } from '../../protocol/bytes.js';
import { premineKey } from '../../protocol/premine.js';
import { makeRegistration } from '../../protocol/registration.js';
import { encodeTransaction } from '../../protocol/transaction.js';
import { DaemonClient } from '../../wallet/daemon-client.js';
import { LightClient } from '../../wallet/light-client/light-client.js';
import { ProofClient } from '../../wallet/private-reads/proof-client.js';
import { mineOneViaRpc, rpcCall, startTestApp } from './app.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';

export const ACCOUNTS = 20;

export interface PrivateReadsChain {
  core: Core;
  /** The daemon's base URL (reads straight from it are the test's, not the wallet's). */
  daemonUrl: string;
  proxy: RecordingProxy;
  /** The wallet's calls, through the proxy. */
  client: ProofClient;
  light: LightClient;
  /** Every account's public key; the wallet's is the first. */
  keys: Uint8Array[];
  address: (key: Uint8Array) => string;
}

export async function openPrivateReadsChain(t: Test): Promise<PrivateReadsChain> {
  const { url } = await startTestApp(t, { network: 'simulator' });
  const core = await loadCore();
  const { G } = core.generators('UMBRA');
  const address = (key: Uint8Array) => encodeAddress('simulator', key);
  const keys: Uint8Array[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const secret = core.keccak256(new TextEncoder().encode(`private reads: account ${i}`));
    keys.push(core.g1Compress(core.g1MulSecret(G, secret)));
    const tx_as_hex = toHex(encodeTransaction(makeRegistration(core, G, secret, 0)));
    await rpcCall(url, 'NODE.SendRawTransaction', { tx_as_hex });
  }
  await mineOneViaRpc(url, address(premineKey(core, 'simulator')));
  const [wallet, other] = [address(keys[0]!), address(keys[1]!)];
  for (const miner of [other, wallet, other, other, wallet, other, other]) await mineOneViaRpc(url, miner);

  const proxy = await startRecordingProxy(url);
  t.teardown(() => proxy.close());
  const dir = mkdtempSync(join(tmpdir(), 'umbra-private-reads-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const light = LightClient.open({ core, network: 'simulator', path: join(dir, 'wallet.headers') });
  t.teardown(() => light.close());
  const daemon = new DaemonClient(proxy.url);
  await light.sync(daemon);
  return { core, daemonUrl: url, proxy, client: new ProofClient(daemon), light, keys, address };
}
