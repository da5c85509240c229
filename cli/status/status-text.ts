/** `umbra status` as text: aligned `label: value` lines, then a table of the peers. */
import { durationText } from '../../host/duration-text.js';
import { hashRateEstimateText } from '../../protocol/hash-rate.js';
import type { FastSyncFigures } from '../../host/services/chain-info.js';
import type { DaemonStatus, PeerStatus, SyncStatus } from './daemon-status.js';

function syncText(height: number, sync: SyncStatus): string {
  const where = `${height} / ${sync.target_height} blocks (${sync.percent.toFixed(1)} %)`;
  if (sync.synced) return `synced, ${where}`;
  const rate = sync.blocks_per_second === null ? 'rate not known yet' : `${sync.blocks_per_second.toFixed(1)} blocks/s`;
  const eta = sync.eta_seconds === null ? 'ETA unknown' : `ETA ${durationText(sync.eta_seconds)}`;
  return `syncing, ${where}, ${rate}, ${eta}`;
}

function fastSyncText(fast: FastSyncFigures): string {
  const unit = { headers: 'headers checked', state: 'states fetched', blocks: 'blocks stored' }[fast.phase];
  const leaves = fast.phase === 'headers' ? '' : `, ${fast.leaves} state leaves`;
  return `${fast.phase} phase, ${fast.done} / ${fast.total} ${unit}${leaves} (snapshot at height ${fast.snapshot_height})`;
}

function peersSummary(peers: PeerStatus[] | null): string {
  if (peers === null) return 'none (the daemon runs without P2P)';
  const incoming = peers.filter((peer) => peer.direction === 'incoming').length;
  return `${peers.length} (${incoming} incoming, ${peers.length - incoming} outgoing)`;
}

/** Columns padded to their widest cell, two spaces apart. */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
}

export function statusText(status: DaemonStatus): string {
  const fields: [string, string][] = [
    ['daemon', status.daemon],
    ['network', status.network],
    ['version', status.version],
    ['uptime', status.uptime_seconds === null ? 'unknown' : durationText(status.uptime_seconds)],
    ['height', `${status.height} (topoheight ${status.topoheight}, stable ${status.stableheight})`],
    ['sync', syncText(status.height, status.sync)],
    ...(status.fast_sync ? [['fast sync', fastSyncText(status.fast_sync)] as [string, string]] : []),
    ['pool', `${status.pool_transactions} transaction${status.pool_transactions === 1 ? '' : 's'}`],
    ['difficulty', String(status.difficulty)],
    ...(status.network_hashrate === null
      ? []
      : [['hash rate', hashRateEstimateText(status.network_hashrate)] as [string, string]]),
    ['block time', `${Number(status.average_block_time.toFixed(2))} s (average of the last 50 blocks)`],
    ['peers', peersSummary(status.peers)],
  ];
  const width = Math.max(...fields.map(([label]) => label.length)) + 1;
  const lines = fields.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`);
  if (status.peers && status.peers.length > 0) {
    lines.push('');
    lines.push(
      ...table([
        ['ADDRESS', 'DIRECTION', 'HEIGHT', 'LATENCY', 'CONNECTED'],
        ...status.peers.map((peer) => [
          peer.address,
          peer.direction,
          String(peer.height),
          peer.latency_ms === null ? '-' : `${peer.latency_ms} ms`,
          durationText(peer.connected_seconds),
        ]),
      ]),
    );
  }
  return `${lines.join('\n')}\n`;
}
