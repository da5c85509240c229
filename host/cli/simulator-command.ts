/**
 * `umbra simulator`: what a contract developer starts first. One daemon on the simulator network (RPC 127.0.0.1:20000,
 * the `simulator` plugin mining blocks at once when transactions wait) and N wallets (default 22), each with its RPC
 * server on 127.0.0.1:30000+i, registered and funded with 800 000 atomic units at every start (whoever holds less is
 * topped up). A fresh chain in a fresh temporary directory each start, unless `--data-dir DIR --keep`. Ctrl-C stops
 * everything.
 *
 * The wallets' keys are public by design: wallet i's secret is Keccak-256("UMBRA simulator wallet <i>") mod n.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { bigintFromBytesBE, bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { mod } from '../../core-native/ts/proof/field.js';
import type { Core } from '../../core-native/ts/core.js';
import { DaemonClient } from '../../wallet/daemon-client.js';
import { composeWalletApp } from './wallet-app.js';
import { walletKeys } from '../../wallet/wallet-keys.js';
import { WalletService } from '../../wallet/wallet-service.js';
import { composeApp, type App } from '../app.js';
import { DAEMON_PLUGINS, defaultCacheDir } from '../config/defaults.js';
import { loadConfig } from '../config/load.js';
import type { UmbraConfig } from '../config/schema.js';
import { runUntilSignalled } from '../lifecycle.js';
import { optionalService } from '../services/services.js';
import { addNodeOptions, flagsToConfig, type DaemonFlags } from './daemon-command.js';

/** What each simulator wallet holds at start, atomic units. */
export const SIMULATOR_WALLET_FUNDS = 800_000n;

interface SimulatorFlags extends DaemonFlags {
  wallets: string;
  walletRpcPortBase: string;
  keep?: boolean;
  automine: boolean;
}

/** The public secret key of simulator wallet `index`. */
export function simulatorWalletSecret(core: Core, index: number): Uint8Array {
  return bigintToBytes32BE(
    mod(bigintFromBytesBE(core.keccak256(new TextEncoder().encode(`UMBRA simulator wallet ${index}`)))),
  );
}

const boundPort = (app: App, server: string): number =>
  (app.container.cradle.httpServers.get(server)!.address() as AddressInfo).port;

function count(value: string, name: string, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new Error(`${name} must be an integer from 0 to ${max}, got ${value}`);
  return n;
}

async function startSimulator(
  flags: SimulatorFlags,
  write: (text: string) => void,
): Promise<{ stop(): Promise<void> } & { logger: App['logger'] }> {
  const wallets = count(flags.wallets, '--wallets', 1000);
  const portBase = count(flags.walletRpcPortBase, '--wallet-rpc-port-base', 65535 - wallets);
  const dataDir = flags.dataDir ?? mkdtempSync(join(tmpdir(), 'umbra-simulator-'));
  if (flags.dataDir && !flags.keep) rmSync(dataDir, { recursive: true, force: true });
  const config: UmbraConfig = loadConfig({
    file: flags.config,
    flags: {
      ...flagsToConfig(flags),
      network: 'simulator',
      dataDir,
      plugins: flags.plugins ?? [...DAEMON_PLUGINS, 'simulator'],
      automine: flags.automine,
    },
  });
  const daemon = await composeApp(config);
  await daemon.start();
  const apps: App[] = [];
  const stop = async (): Promise<void> => {
    for (const app of apps.reverse()) await app.stop();
    await daemon.stop();
    if (!flags.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const { core } = daemon.container.cradle;
    const simulator = optionalService(daemon.container, 'simulator');
    if (!simulator) throw new Error("umbra simulator needs the 'simulator' plugin: keep it in --plugins");
    const keys = Array.from({ length: wallets }, (_, i) =>
      walletKeys(core, 'simulator', simulatorWalletSecret(core, i)),
    );
    const funded = await simulator.registerAndFund(keys, SIMULATOR_WALLET_FUNDS);
    const daemonAddress = `127.0.0.1:${boundPort(daemon, 'daemon')}`;
    write(
      `Umbra simulator: daemon RPC http://${daemonAddress}/json_rpc, data in ${dataDir}${funded > 0 ? `; ${funded} wallets funded up to ${SIMULATOR_WALLET_FUNDS} atomic units` : ''}\n`,
    );
    for (const [i, walletKey] of keys.entries()) {
      const wallet = new WalletService({
        core,
        keys: walletKey,
        daemon: new DaemonClient(daemonAddress),
        balanceTableDir: defaultCacheDir(),
      });
      const app = await composeWalletApp(wallet, {
        rpcBind: `127.0.0.1:${portBase === 0 ? 0 : portBase + i}`,
        crypto: config.crypto,
        logLevel: config.logLevel,
      });
      await app.start();
      apps.push(app);
      write(`wallet ${i}: ${walletKey.address} http://127.0.0.1:${boundPort(app, 'wallet')}/json_rpc\n`);
    }
    write(
      `simulator ready (${config.automine ? 'automine: a block whenever transactions wait, and every 18 s' : 'no automine: SIMULATOR.Mine or SIGUSR1 mines a block'})\n`,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop, logger: daemon.logger };
}

export function simulatorCommand(write: (text: string) => void = (text) => process.stdout.write(text)): Command {
  return addNodeOptions(
    new Command('simulator').description(
      'a local devnet for contract developers: a daemon that mines on demand and funded wallets with RPC servers',
    ),
  )
    .option('--wallets <n>', 'how many wallets to start', '22')
    .option('--wallet-rpc-port-base <port>', 'wallet i serves RPC on 127.0.0.1:<port>+i (0: any free ports)', '30000')
    .option('--keep', 'keep the chain in --data-dir from the last run (default: start afresh)')
    .option('--noautomine', 'mine only on request (SIMULATOR.Mine or SIGUSR1)')
    .action(async (flags: SimulatorFlags & { noautomine?: boolean }) => {
      if (flags.keep && !flags.dataDir)
        throw new Error('--keep needs --data-dir (the default is a fresh temporary directory)');
      if (flags.network && flags.network !== 'simulator')
        throw new Error(`the simulator runs the simulator network, not ${flags.network}`);
      let running: Awaited<ReturnType<typeof startSimulator>> | undefined;
      await runUntilSignalled({
        start: async () => void (running = await startSimulator({ ...flags, automine: !flags.noautomine }, write)),
        stop: async () => running?.stop(),
        get logger() {
          return running!.logger;
        },
      });
    });
}
