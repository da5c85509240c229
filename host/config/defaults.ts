import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import { NETWORKS, type NetworkName } from '../../protocol/network.js';
import type { UmbraConfig } from './schema.js';

/** The plugins a daemon runs (transports are chosen separately by `transports`); leave `explorer` out to turn it off. */
export const DAEMON_PLUGINS = ['dvm', 'consensus', 'mempool', 'mining', 'p2p', 'metrics', 'explorer'];

/** Umbra's own directory: ~/.umbra, or ./data without a home. */
function umbraHome(): string {
  return process.env['HOME'] ? join(homedir(), '.umbra') : 'data';
}

/** Where a network's data lives unless `dataDir` says otherwise: under the user's home, or ./data without one. */
export function defaultDataDir(network: NetworkName): string {
  return join(umbraHome(), network);
}

/**
 * Where caches every network shares live (the wallet's balance-decoding table): $UMBRA_CACHE_DIR when set (a read-only
 * home, a container), else ~/.umbra/cache.
 */
export function defaultCacheDir(): string {
  return process.env['UMBRA_CACHE_DIR'] || join(umbraHome(), 'cache');
}

export function defaultConfig(network: NetworkName): UmbraConfig {
  return {
    network,
    dataDir: defaultDataDir(network),
    cacheDir: defaultCacheDir(),
    store: 'rocksdb',
    crypto: 'auto',
    // One per core; the simulator's blocks of a few transactions are verified on its own thread (a worker holds
    // ≈ 20 MiB).
    verifyWorkers: network === 'simulator' ? 0 : availableParallelism(),
    plugins: [...DAEMON_PLUGINS],
    transports: ['http', 'ws'],
    rpcBind: `127.0.0.1:${NETWORKS[network].defaultRpcPort}`,
    rpcLogin: '',
    rpcMaxBodyBytes: 4 * 1024 * 1024,
    logLevel: 'info',
    miningThreads: 0,
    miningAddress: '',
    // Miners of a test network connect to their own machine's daemon; mainnet serves getwork only when asked.
    getworkBind: network === 'testnet' ? '127.0.0.1:40400' : '',
    // P2P must be reachable from other machines, unlike RPC; the simulator runs without it unless asked.
    p2pBind: NETWORKS[network].defaultP2pPort === null ? '' : `0.0.0.0:${NETWORKS[network].defaultP2pPort}`,
    addPeers: [],
    maxPeers: 32,
    seedPeers: [...NETWORKS[network].seedPeers],
    p2pRequestTimeoutMs: 30_000,
    noPeerWarningMs: 60_000,
    p2pMaxPerIp: 4,
    automine: true,
    fullSync: false,
    fastSyncMinHeight: 1000,
    archive: false,
    pruneDepth: 0,
    pruneBlocks: false,
  };
}
