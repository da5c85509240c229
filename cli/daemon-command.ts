/** `umbra daemon`: runs a node (the configured plugins and RPC transports) until SIGINT/SIGTERM. */
import { Command, Option } from 'commander';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { composeApp } from '../host/app.js';
import { DAEMON_PLUGINS } from '../host/config/defaults.js';
import { loadConfig } from '../host/config/load.js';
import { CRYPTO_IMPLS, LOG_LEVELS, STORE_KINDS, type UmbraConfig } from '../host/config/schema.js';
import { runUntilSignalled } from '../host/lifecycle.js';
import { NETWORK_NAMES, type NetworkName } from '../protocol/network.js';

const splitList = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export interface DaemonFlags {
  network?: NetworkName;
  testnet?: boolean;
  config?: string;
  dataDir?: string;
  cacheDir?: string;
  rpcBind?: string;
  rpcLogin?: string;
  rpcMaxBody?: string;
  store?: string;
  crypto?: string;
  verifyWorkers?: string;
  plugins?: string[];
  transports?: string[];
  logLevel?: string;
  miningThreads?: string;
  miningAddress?: string;
  getworkBind?: string;
  p2pBind?: string;
  addPeer?: string[];
  maxPeers?: string;
  fullSync?: boolean;
  archive?: boolean;
  pruneDepth?: string;
  pruneBlocks?: boolean;
}

/** --network and --testnet: the network a command works on. */
export function addNetworkOptions(command: Command, what: string): Command {
  return command
    .addOption(new Option('--network <name>', what).choices(NETWORK_NAMES))
    .option('--testnet', 'shorthand for --network testnet');
}

/**
 * The flags of a node's own process, whatever its network (the daemon, the simulator): config file, RPC server,
 * store, cryptography, plugins, log. `defaults` says what --data-dir and --plugins default to there.
 */
export function addNodeProcessOptions(command: Command, defaults: { dataDir: string; plugins: string }): Command {
  return command
    .option('--config <file>', 'JSON config file (an object of config keys; flags override it)')
    .option('--data-dir <dir>', `where the database lives (default: ${defaults.dataDir})`)
    .option(
      '--rpc-bind <host:port>',
      'daemon RPC address (default 127.0.0.1:10102 mainnet, :40402 testnet, :20000 simulator; port 0 = any free port)',
    )
    .option('--rpc-login <user:pass>', 'require HTTP Basic auth on the RPC server')
    .option('--rpc-max-body <bytes>', 'largest accepted RPC request body (default 4194304)')
    .addOption(new Option('--store <kind>', 'key-value store').choices(STORE_KINDS))
    .addOption(
      new Option('--crypto <impl>', 'cryptography implementation (auto: native when built)').choices(CRYPTO_IMPLS),
    )
    .option(
      '--verify-workers <n>',
      "threads verifying transfer proofs (default: one per core; 0, the simulator's default: on the node's own thread)",
    )
    .option(
      '--plugins <list>',
      `comma-separated plugins to run, names or module paths (default: ${defaults.plugins})`,
      splitList,
    )
    .option('--transports <list>', 'comma-separated RPC transports: http, ws', splitList)
    .addOption(new Option('--log-level <level>', 'log verbosity').choices(LOG_LEVELS))
    .option(
      '--getwork-bind <host:port>',
      "getwork server for external miners (default 127.0.0.1:40400 on testnet, none on mainnet and the simulator; '' = none)",
    );
}

/** The flags of a node on a network of many: the built-in miner, P2P, sync and pruning. */
function addNetworkNodeOptions(command: Command): Command {
  return command
    .option('--mining-threads <n>', 'run the built-in CPU miner on this many threads (default 0: off)')
    .option('--mining-address <address>', 'registered address the built-in miner mines to')
    .option(
      '--p2p-bind <host:port>',
      "P2P listening address (default 0.0.0.0:10101 mainnet, :40401 testnet, none on the simulator; '' = do not listen)",
    )
    .option(
      '--add-peer <host:port>',
      'connect to this peer (repeatable); host:port/p2p/<peer id> also requires its key',
      collect,
    )
    .option('--max-peers <n>', 'most P2P connections at once (default 32)')
    .option('--full-sync', 'replay the chain from genesis instead of a fast sync from a verified state snapshot')
    .option('--archive', 'keep every state version and block (default for a node whose history starts at genesis)')
    .option('--prune-depth <n>', 'keep the state of the last n blocks only (default 10000 on a fast-synced node)')
    .option('--prune-blocks', 'while pruning, also drop block bodies and transactions below the history floor');
}

/** Maps parsed flags to config keys; flags left out are undefined and do not override the file or defaults. */
export function flagsToConfig(flags: DaemonFlags): Partial<Record<keyof UmbraConfig, unknown>> {
  if (flags.testnet && flags.network && flags.network !== 'testnet') {
    throw new Error(`--testnet contradicts --network ${flags.network}`);
  }
  return {
    network: flags.testnet ? 'testnet' : flags.network,
    dataDir: flags.dataDir,
    cacheDir: flags.cacheDir,
    rpcBind: flags.rpcBind,
    rpcLogin: flags.rpcLogin,
    rpcMaxBodyBytes: flags.rpcMaxBody,
    store: flags.store,
    crypto: flags.crypto,
    verifyWorkers: flags.verifyWorkers,
    plugins: flags.plugins,
    transports: flags.transports,
    logLevel: flags.logLevel,
    miningThreads: flags.miningThreads,
    miningAddress: flags.miningAddress,
    getworkBind: flags.getworkBind,
    p2pBind: flags.p2pBind,
    addPeers: flags.addPeer,
    maxPeers: flags.maxPeers,
    fullSync: flags.fullSync,
    archive: flags.archive,
    pruneDepth: flags.pruneDepth,
    pruneBlocks: flags.pruneBlocks,
  };
}

export function daemonCommand(): Command {
  const command = addNetworkOptions(new Command('daemon').description(COMMAND_SUMMARIES.daemon), 'network to join');
  addNodeProcessOptions(command, { dataDir: '~/.umbra/<network>', plugins: DAEMON_PLUGINS.join(',') });
  return addNetworkNodeOptions(command).action(async (flags: DaemonFlags) => {
    const config = loadConfig({ file: flags.config, flags: flagsToConfig(flags) });
    const app = await composeApp(config);
    app.logger.info(`Umbra daemon on ${config.network}; plugins: ${app.plugins.map((p) => p.name).join(', ')}`);
    await runUntilSignalled(app);
  });
}
