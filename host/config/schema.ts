/**
 * Umbra's configuration: every key, its type and how a value is checked. A config file, the command-line flags and
 * the per-network defaults all speak these keys; an unknown key or a bad value is rejected with a message naming it.
 */
import { STABLE_DEPTH, TX_VALIDITY_BLOCKS } from '../../protocol/chain-params.js';
import type { NetworkName } from '../../protocol/network.js';
import { UmbraError } from '../../core-native/ts/errors.js';

export const STORE_KINDS = ['rocksdb', 'memory'] as const;
export const CRYPTO_IMPLS = ['native', 'fallback', 'auto'] as const;
export const TRANSPORTS = ['http', 'ws'] as const;
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export interface UmbraConfig {
  network: NetworkName;
  /** Where the node keeps its database. */
  dataDir: string;
  /** Where caches every network shares live (the balance-decoding table of the simulator's funding). */
  cacheDir: string;
  store: (typeof STORE_KINDS)[number];
  crypto: (typeof CRYPTO_IMPLS)[number];
  /** Worker threads verifying blocks' transfer proofs (0: none, they are verified on the node's own thread). */
  verifyWorkers: number;
  /** Plugins to run besides the transports, e.g. `consensus`. */
  plugins: string[];
  /** RPC transports to serve: `http` (POST /json_rpc) and `ws` (/ws with server push). */
  transports: (typeof TRANSPORTS)[number][];
  /** `host:port` of the daemon RPC server. */
  rpcBind: string;
  /** `user:pass` for HTTP Basic auth on the RPC server, or empty for none. */
  rpcLogin: string;
  /** Largest accepted request body in bytes (413 above it). */
  rpcMaxBodyBytes: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Threads of the built-in CPU miner (0: no mining). */
  miningThreads: number;
  /** Address the built-in miner mines to (must be registered). */
  miningAddress: string;
  /** `host:port` the getwork server for external miners listens on, or empty for none. */
  getworkBind: string;
  /** `host:port` the P2P server listens on, or empty for none (outgoing connections only). */
  p2pBind: string;
  /** Peers to connect to at start (and to keep reconnecting to): `host:port`, or `host:port/p2p/<peer id>` to pin its key. */
  addPeers: string[];
  /** Most P2P connections at once, incoming and outgoing together. */
  maxPeers: number;
  /** `host:port` of well-known peers, dialled when the peer book is empty (defaults per network). */
  seedPeers: string[];
  /** Time a P2P request (blocks, chain ids, transactions) has for its answer, ms. */
  p2pRequestTimeoutMs: number;
  /** The log warns when the node has had no peer for this long, ms (and again every ten times as long). */
  noPeerWarningMs: number;
  /** Most P2P connections from one remote IP address. */
  p2pMaxPerIp: number;
  /** Simulator: mine a block whenever transactions wait, and every 18 s (false: only on request). */
  automine: boolean;
  /** Replay the chain from genesis even with an empty data dir, instead of a fast sync from a state snapshot. */
  fullSync: boolean;
  /** A node with an empty chain fast-syncs only when the snapshot height is at least this (else it replays). */
  fastSyncMinHeight: number;
  /** Keep every state version and block (the default for a node whose history starts at genesis). */
  archive: boolean;
  /** Keep the state of the last N blocks only (N ≥ MIN_PRUNE_DEPTH); 0: automatic (see chain-pruner.ts). */
  pruneDepth: number;
  /** While pruning, also drop the block bodies and transactions below the history floor. */
  pruneBlocks: boolean;
}

/**
 * The smallest prune depth: a reorganisation never reaches below the stable height, and a transaction may reference a
 * block up to TX_VALIDITY_BLOCKS back, whose state its check reads.
 */
export const MIN_PRUNE_DEPTH = Number(STABLE_DEPTH > TX_VALIDITY_BLOCKS ? STABLE_DEPTH : TX_VALIDITY_BLOCKS);
/** The prune depth of a fast-synced node that names none: about 50 hours of 18-second blocks. */
export const DEFAULT_PRUNE_DEPTH = 10_000;

export type ConfigKey = keyof UmbraConfig;

/** Checks one raw value and returns it typed, or throws with a message that does not name the key (the caller does). */
type Check = (value: unknown) => unknown;

function oneOf(values: readonly string[]): Check {
  return (value) => {
    if (typeof value !== 'string' || !values.includes(value)) {
      throw new Error(`must be one of ${values.join(', ')}, got ${JSON.stringify(value)}`);
    }
    return value;
  };
}

function nonEmptyString(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new Error(`must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

function listOf(item: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) throw new Error(`must be an array, got ${JSON.stringify(value)}`);
    return value.map((v, i) => {
      try {
        return item(v);
      } catch (error) {
        throw new Error(`item ${i} ${(error as Error).message}`);
      }
    });
  };
}

/** `host:port` with a port in 0..65535 (0 asks the system for a free port). IPv6 hosts go in brackets. */
export function parseBindAddress(value: string): { host: string; port: number } {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(value);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) throw new Error(`must be host:port, got ${JSON.stringify(value)}`);
  const host = match[1]!.startsWith('[') ? match[1]!.slice(1, -1) : match[1]!;
  return { host, port };
}

function bindAddress(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`must be host:port, got ${JSON.stringify(value)}`);
  parseBindAddress(value);
  return value;
}

/** A peer to dial: `host:port`, optionally pinned to its node key as `host:port/p2p/<peer id>` (base58). */
function peerAddress(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`must be host:port[/p2p/<peer id>], got ${JSON.stringify(value)}`);
  const [address = '', peerId, ...rest] = value.split('/p2p/');
  parseBindAddress(address);
  if (rest.length > 0 || (peerId !== undefined && !/^[1-9A-HJ-NP-Za-km-z]{32,}$/.test(peerId)))
    throw new Error(`must be host:port[/p2p/<peer id>], got ${JSON.stringify(value)}`);
  return value;
}

/** A bind address, or empty for "do not listen". */
function optionalBindAddress(value: unknown): string {
  return value === '' ? value : bindAddress(value);
}

function login(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`must be user:pass, got ${JSON.stringify(value)}`);
  if (value !== '' && !/^[^:]+:.+$/.test(value))
    throw new Error('must be user:pass (a user name, a colon, a password)');
  return value;
}

function nonNegativeInteger(value: unknown): number {
  if (typeof value === 'string' && /^\d+$/.test(value)) value = Number(value);
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new Error(`must be a non-negative integer, got ${JSON.stringify(value)}`);
  }
  return value;
}

function anyString(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`must be a string, got ${JSON.stringify(value)}`);
  return value;
}

function boolean(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new Error(`must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

function positiveInteger(value: unknown): number {
  if (typeof value === 'string' && /^\d+$/.test(value)) value = Number(value);
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return value;
}

function pruneDepth(value: unknown): number {
  const depth = nonNegativeInteger(value);
  if (depth !== 0 && depth < MIN_PRUNE_DEPTH)
    throw new Error(
      `must be 0 (automatic) or at least ${MIN_PRUNE_DEPTH} blocks (the stable depth and the blocks a transaction may reference), got ${depth}`,
    );
  return depth;
}

export const CONFIG_CHECKS: Readonly<Record<ConfigKey, Check>> = {
  network: oneOf(['mainnet', 'testnet', 'simulator']),
  dataDir: nonEmptyString,
  cacheDir: nonEmptyString,
  store: oneOf(STORE_KINDS),
  crypto: oneOf(CRYPTO_IMPLS),
  verifyWorkers: nonNegativeInteger,
  plugins: listOf(nonEmptyString),
  transports: listOf(oneOf(TRANSPORTS)),
  rpcBind: bindAddress,
  rpcLogin: login,
  rpcMaxBodyBytes: positiveInteger,
  logLevel: oneOf(LOG_LEVELS),
  miningThreads: nonNegativeInteger,
  miningAddress: anyString,
  getworkBind: optionalBindAddress,
  p2pBind: optionalBindAddress,
  addPeers: listOf(peerAddress),
  maxPeers: positiveInteger,
  seedPeers: listOf(bindAddress),
  p2pRequestTimeoutMs: positiveInteger,
  noPeerWarningMs: positiveInteger,
  p2pMaxPerIp: positiveInteger,
  automine: boolean,
  fullSync: boolean,
  fastSyncMinHeight: (value) => {
    const height = positiveInteger(value);
    // The snapshot's window of states (the blocks transactions after it may reference) must fit above genesis.
    if (height < 16) throw new Error(`must be at least 16, got ${height}`);
    return height;
  },
  archive: boolean,
  pruneDepth,
  pruneBlocks: boolean,
};

export const ConfigErrorCode = {
  UnknownKey: 'config.unknown-key',
  /** A value of the wrong type or out of range; the message names the key and where the value came from. */
  BadValue: 'config.bad-value',
  /** A config file that cannot be read, or holds no JSON object. */
  BadFile: 'config.bad-file',
  /** Two settings that cannot be combined. */
  Conflict: 'config.conflict',
} as const;
export type ConfigErrorCode = (typeof ConfigErrorCode)[keyof typeof ConfigErrorCode];

export class ConfigError extends UmbraError<ConfigErrorCode> {
  override readonly name = 'ConfigError';
}

/** Validates one key's value; the error names the key and where the value came from. */
export function checkConfigValue(key: string, value: unknown, source: string): unknown {
  if (!Object.hasOwn(CONFIG_CHECKS, key)) {
    throw new ConfigError(
      ConfigErrorCode.UnknownKey,
      `${source}: unknown config key '${key}' (known keys: ${Object.keys(CONFIG_CHECKS).join(', ')})`,
    );
  }
  try {
    return CONFIG_CHECKS[key as ConfigKey](value);
  } catch (error) {
    throw new ConfigError(ConfigErrorCode.BadValue, `${source}: '${key}' ${(error as Error).message}`);
  }
}
