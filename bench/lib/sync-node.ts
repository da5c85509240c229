/**
 * A fresh node syncing in a process of its own, as a new node joins a network: started with one JSON argument
 * (SyncNodeJob), it connects to the peers and prints the seconds from connecting to holding the given top block as
 * one JSON line ({"seconds": …}), then stops, removes its data directory and exits. The bench's source runs in
 * another process, so neither's work or heap slows the other's.
 */
import { rmSync } from 'node:fs';
import { startNode, topOf, waitUntil } from '../../test/helpers/p2p.js';

export interface SyncNodeJob {
  dataDir: string;
  flags: Record<string, unknown>;
  peers: string[];
  /** The id (hex) of the top block to reach. */
  top: string;
  timeoutMs: number;
}

const job = JSON.parse(process.argv[2] ?? '') as SyncNodeJob;
const fresh = await startNode('fresh', { store: 'rocksdb', dataDir: job.dataDir, ...job.flags });
const start = process.hrtime.bigint();
await Promise.all(job.peers.map((peer) => fresh.p2p.connect(peer)));
await waitUntil('the fresh node has synced', () => topOf(fresh) === job.top, job.timeoutMs);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
await fresh.app.stop();
rmSync(job.dataDir, { recursive: true, force: true });
console.log(JSON.stringify({ seconds }));
