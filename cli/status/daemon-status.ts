/**
 * One view of a daemon, read from its JSON-RPC (NODE.GetInfo and NODE.GetPeers): height, sync progress with an ETA,
 * peers, pool, estimated network hash rate, version and uptime — what `umbra status` prints.
 */
import type { FastSyncFigures } from '../../host/services/chain-info.js';
import { DaemonRpcError } from '../../wallet/daemon-client.js';
import type { StatusSource } from './local-daemon.js';

/** JSON-RPC's "method not found": a daemon without the p2p plugin has no NODE.GetPeers. */
const METHOD_NOT_FOUND = -32601;

/** The NODE.GetInfo fields read here. */
interface InfoAnswer {
  height: number;
  topoheight: number;
  stableheight: number;
  target_height: number;
  difficulty: number;
  averageblocktime50: number;
  /** The network's hash rate over the hour up to the top block; absent without the mining plugin's figures. */
  hashrate_1hr?: number;
  tx_pool_size: number;
  network: string;
  version: string;
  uptime?: number;
  /** Absent from daemons that predate fast sync. */
  fast_sync?: FastSyncFigures | null;
}

/** One NODE.GetPeers peer. */
export interface PeerStatus {
  address: string;
  direction: 'incoming' | 'outgoing';
  height: number;
  latency_ms: number | null;
  connected_seconds: number;
}

interface PeersAnswer {
  peers: PeerStatus[];
  sync: { blocks_per_second: number; eta_seconds: number | null } | null;
}

export interface SyncStatus {
  /** The highest height this daemon or its peers report. */
  target_height: number;
  /** height / target_height, in percent, rounded down to one decimal. */
  percent: number;
  synced: boolean;
  /** null when no rate is known yet (the daemon is not syncing, or only one sample was taken). */
  blocks_per_second: number | null;
  eta_seconds: number | null;
}

export interface DaemonStatus {
  daemon: string;
  network: string;
  version: string;
  /** Seconds the daemon has run; null for a daemon that does not say. */
  uptime_seconds: number | null;
  height: number;
  topoheight: number;
  stableheight: number;
  sync: SyncStatus;
  /** The running fast sync (phase and progress), or null. */
  fast_sync: FastSyncFigures | null;
  pool_transactions: number;
  difficulty: number;
  /**
   * Hashes per second the network makes: the accepted miniblocks' difficulty over the hour up to the top block
   * (GetInfo's hashrate_1hr). null on the simulator, which mines on demand: it has no hash rate to speak of.
   */
  network_hashrate: number | null;
  average_block_time: number;
  /** null when the daemon runs without P2P. */
  peers: PeerStatus[] | null;
  /** When this view was read, ms since the epoch. */
  sampled_at: number;
}

/**
 * Reads the daemon's status. The sync rate and ETA are the daemon's own while it syncs; otherwise, when the node is
 * behind, they come from the heights of `previous` (an earlier sample) and this one.
 */
export async function readDaemonStatus(
  client: StatusSource,
  previous?: DaemonStatus,
  now: () => number = Date.now,
): Promise<DaemonStatus> {
  const [info, peers] = await Promise.all([client.call<InfoAnswer>('NODE.GetInfo'), readPeers(client)]);
  const sampledAt = now();
  const bestPeer = Math.max(0, ...(peers?.peers ?? []).map((peer) => peer.height));
  const target = Math.max(info.height, info.target_height, bestPeer);
  const synced = info.height >= target;
  let rate: number | null = peers?.sync?.blocks_per_second ?? null;
  if (rate === null && previous && !synced && sampledAt > previous.sampled_at)
    rate = Math.max(0, (info.height - previous.height) / ((sampledAt - previous.sampled_at) / 1000));
  const daemonEta = peers?.sync?.eta_seconds;
  return {
    daemon: client.url,
    network: info.network,
    version: info.version,
    uptime_seconds: info.uptime ?? null,
    height: info.height,
    topoheight: info.topoheight,
    stableheight: info.stableheight,
    sync: {
      target_height: target,
      percent: target > 0 ? Math.floor((1000 * info.height) / target) / 10 : 100,
      synced,
      blocks_per_second: synced ? null : rate,
      eta_seconds: synced
        ? 0
        : (daemonEta ?? (rate !== null && rate > 0 ? Math.round((target - info.height) / rate) : null)),
    },
    fast_sync: info.fast_sync ?? null,
    pool_transactions: info.tx_pool_size,
    difficulty: info.difficulty,
    network_hashrate: info.network === 'simulator' ? null : (info.hashrate_1hr ?? 0),
    average_block_time: info.averageblocktime50,
    peers: peers?.peers ?? null,
    sampled_at: sampledAt,
  };
}

async function readPeers(client: StatusSource): Promise<PeersAnswer | undefined> {
  try {
    return await client.call<PeersAnswer>('NODE.GetPeers');
  } catch (error) {
    if (error instanceof DaemonRpcError && error.rpcCode === METHOD_NOT_FOUND) return undefined;
    throw error;
  }
}
