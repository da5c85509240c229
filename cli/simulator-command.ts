/**
 * `umbra simulator`: what a contract developer starts first. One daemon on the simulator network (RPC 127.0.0.1:20000,
 * the `simulator` plugin mining blocks at once when transactions wait, and its SIMULATOR.* controls) and N wallets
 * (default 22), each with its RPC server on 127.0.0.1:30000+i, registered and funded with 800 000 atomic units at every
 * start (whoever holds less is topped up). It prints the wallets and URLs, as anvil prints its accounts; the log goes
 * to simulator.log in the data directory (on stderr with --verbose). A fresh chain in a fresh temporary directory each
 * start, unless `--data-dir DIR --keep`; a start that fails removes the directory it made. Ctrl-C stops everything.
 * After SIMULATOR.Revert every wallet is reopened on its port, so its view is rebuilt from the reverted chain.
 * The devnet is one node that mines its own blocks: no P2P, no miner to configure, no sync; it takes only the flags
 * that apply to it.
 *
 * The wallets' keys are public by design: wallet i's secret is Keccak-256("UMBRA simulator wallet <i>") mod n.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { bigintFromBytesBE, bigintToBytes32BE } from '../core-native/ts/bigint-bytes.js';
import { mod } from '../core-native/ts/proof/field.js';
import type { Core } from '../core-native/ts/core.js';
import { DaemonClient } from '../wallet/daemon-client.js';
import { composeWalletApp } from './wallet-app.js';
import { walletKeys } from '../wallet/wallet-keys.js';
import { WalletService } from '../wallet/wallet-service.js';
import { composeApp, type App } from '../host/app.js';
import { DAEMON_PLUGINS } from '../host/config/defaults.js';
import { loadConfig } from '../host/config/load.js';
import type { UmbraConfig } from '../host/config/schema.js';
import { runUntilSignalled } from '../host/lifecycle.js';
import { createLogger } from '../host/logger.js';
import { optionalService } from '../host/services/services.js';
import { describeAmount } from '../protocol/coin-amount.js';
import { cacheDirOption } from './cache-dir-option.js';
import { addNodeProcessOptions, flagsToConfig, type DaemonFlags } from './daemon-command.js';

/** What each simulator wallet holds at start, atomic units. */
export const SIMULATOR_WALLET_FUNDS = 800_000n;
/** The simulator's plugins: the daemon's but P2P (a devnet of one node), and its own. */
const SIMULATOR_PLUGINS = [...DAEMON_PLUGINS.filter((name) => name !== 'p2p'), 'simulator'];

interface SimulatorFlags extends DaemonFlags {
  wallets: string;
  walletRpcPortBase: string;
  keep?: boolean;
  automine: boolean;
  verbose?: boolean;
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
  const apps: App[] = [];
  let daemon: App | undefined;
  const stop = async (): Promise<void> => {
    for (const app of [...apps].reverse()) await app.stop();
    await daemon?.stop();
    if (!flags.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const config: UmbraConfig = loadConfig({
      file: flags.config,
      flags: {
        ...flagsToConfig(flags),
        // A chain in a temporary directory is gone at exit anyway: held in memory, it spares RocksDB's library and
        // caches (≈ 15 MiB resident).
        store: flags.store ?? (flags.dataDir ? undefined : 'memory'),
        network: 'simulator',
        dataDir,
        plugins: flags.plugins ?? SIMULATOR_PLUGINS,
        automine: flags.automine,
      },
    });
    // The daemon's log goes to a file, out of the way of the wallet list, unless --verbose.
    mkdirSync(dataDir, { recursive: true });
    const logFile = join(dataDir, 'simulator.log');
    const logger = flags.verbose
      ? undefined
      : createLogger(config.logLevel, (line) => {
          // The last lines of a stop come after the temporary directory is gone: they have nowhere to go.
          if (existsSync(dataDir)) appendFileSync(logFile, `${line}\n`);
        });
    daemon = await composeApp(config, { logger });
    await daemon.start();
    const { core } = daemon.container.cradle;
    const simulator = optionalService(daemon.container, 'simulator');
    if (!simulator) throw new Error("umbra simulator needs the 'simulator' plugin: keep it in --plugins");
    const keys = Array.from({ length: wallets }, (_, i) =>
      walletKeys(core, 'simulator', simulatorWalletSecret(core, i)),
    );
    const funded = await simulator.registerAndFund(keys, SIMULATOR_WALLET_FUNDS);
    const daemonAddress = `127.0.0.1:${boundPort(daemon, 'daemon')}`;
    // A wallet's view (history, balances) is rebuilt from the chain after a revert: a fresh WalletService on the port
    // the old one had.
    const openWallet = async (i: number, port: number): Promise<App> => {
      const wallet = new WalletService({
        core,
        keys: keys[i]!,
        daemon: new DaemonClient(daemonAddress),
        balanceTableDir: config.cacheDir,
      });
      const app = await composeWalletApp(wallet, {
        rpcBind: `127.0.0.1:${port}`,
        crypto: config.crypto,
        logLevel: config.logLevel,
        ...(logger ? { logger } : {}),
      });
      await app.start();
      return app;
    };
    for (let i = 0; i < wallets; i++) apps.push(await openWallet(i, portBase === 0 ? 0 : portBase + i));
    simulator.onRevert(async () => {
      for (const [i, app] of apps.entries()) {
        const port = boundPort(app, 'wallet');
        await app.stop();
        apps[i] = await openWallet(i, port);
      }
    });
    const funds = describeAmount(SIMULATOR_WALLET_FUNDS);
    const lines = [
      'Umbra simulator',
      '',
      `Wallets: ${wallets}, each topped up to ${funds} at start${funded > 0 ? `; ${funded} wallets funded up to ${funds}` : ''}.`,
      `Wallet i's secret key is Keccak-256("UMBRA simulator wallet i") mod n (public on purpose).`,
      ...keys.map((key, i) => `wallet ${i}: ${key.address} http://127.0.0.1:${boundPort(apps[i]!, 'wallet')}/json_rpc`),
      '',
      `daemon RPC http://${daemonAddress}/json_rpc`,
      `data       ${dataDir}${flags.dataDir ? '' : ' (removed at exit)'}`,
      `log        ${logger ? logFile : 'on stderr (--verbose)'}`,
      '',
      `simulator ready (${config.automine ? 'automine: a block whenever transactions wait, and every 18 s' : 'no automine: SIMULATOR.Mine or SIGUSR1 mines a block'})`,
    ];
    write(`${lines.join('\n')}\n`);
    return { stop, logger: daemon.logger };
  } catch (error) {
    // A start that fails (a port taken, a bad flag) leaves nothing behind, its temporary directory included.
    await stop().catch(() => undefined);
    throw error;
  }
}

export function simulatorCommand(write: (text: string) => void = (text) => process.stdout.write(text)): Command {
  return addNodeProcessOptions(new Command('simulator').description(COMMAND_SUMMARIES.simulator), {
    dataDir: 'a fresh temporary directory, removed at exit, with the chain in memory unless --store says otherwise',
    plugins: SIMULATOR_PLUGINS.join(','),
  })
    .addOption(cacheDirOption())
    .option('--wallets <n>', 'how many wallets to start', '22')
    .option('--wallet-rpc-port-base <port>', 'wallet i serves RPC on 127.0.0.1:<port>+i (0: any free ports)', '30000')
    .option('--keep', 'keep the chain in --data-dir from the last run (default: start afresh)')
    .option('--noautomine', 'mine only on request (SIMULATOR.Mine or SIGUSR1)')
    .option('--verbose', "the daemon's and wallets' log on stderr (default: simulator.log in the data directory)")
    .action(async (flags: SimulatorFlags & { noautomine?: boolean }) => {
      if (flags.keep && !flags.dataDir)
        throw new Error('--keep needs --data-dir (the default is a fresh temporary directory)');
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
