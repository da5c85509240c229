/**
 * The daemon's own metrics: the chain (height, topoheight, stable height, next difficulty, block application time),
 * transfer verification time by ring size, the transaction pool, P2P peers by direction, the built-in miner's hash
 * rate and the getwork server's miners.
 * Each group is there when the plugin that provides its service is configured. Gauges are read at scrape time.
 */
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { ChainService } from '../../host/services/chain.js';
import type { ConnectedMiner, MinersService } from '../../host/services/miners.js';
import type { MiningService } from '../../host/services/mining.js';
import type { P2pService } from '../../host/services/p2p.js';
import type { TxPoolService } from '../../host/services/tx-pool.js';

export interface NodeSources {
  chain?: ChainService;
  txPool?: TxPoolService;
  p2p?: P2pService;
  mining?: MiningService;
  miners?: MinersService;
}

/** A gauge whose value is read when Prometheus scrapes. */
function readGauge(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

/** Registers the node's metrics; returns the function that stops observing the chain. */
/** Per connected getwork miner (at most 256, so the label set stays bounded); redrawn at each scrape. */
function registerMinerMetrics(registry: Registry, miners: MinersService): void {
  readGauge(
    registry,
    'umbra_getwork_miners',
    'Miners connected to the getwork server',
    () => miners.connected().length,
  );
  const perMiner: [string, string, (miner: ConnectedMiner) => number][] = [
    [
      'umbra_getwork_miner_share',
      "A connected miner's part of the last 100 blocks' ordinary miniblocks",
      (m) => m.share,
    ],
    ['umbra_getwork_miner_accepted', "A connected miner's accepted submissions", (m) => m.accepted],
    ['umbra_getwork_miner_rejected', "A connected miner's rejected submissions", (m) => m.rejected],
  ];
  for (const [name, help, read] of perMiner)
    new Gauge({
      name,
      help,
      labelNames: ['address'],
      registers: [registry],
      collect() {
        this.reset();
        for (const miner of miners.connected()) this.set({ address: miner.address }, read(miner));
      },
    });
}

export function registerNodeMetrics(
  registry: Registry,
  { chain, txPool, p2p, mining, miners }: NodeSources,
): () => void {
  let stop = (): void => {};
  if (chain) {
    readGauge(registry, 'umbra_chain_height', 'Height of the main chain top block', () => Number(chain.top.height));
    // The chain is linear: a block's topoheight is its height.
    readGauge(registry, 'umbra_chain_topoheight', 'Topoheight of the main chain top block', () =>
      Number(chain.top.height),
    );
    readGauge(
      registry,
      'umbra_chain_stable_height',
      'Height at and below which no reorganisation can change the chain',
      () => Number(chain.stableHeight()),
    );
    readGauge(registry, 'umbra_chain_difficulty', 'Difficulty of the next block', () =>
      Number(chain.difficultyAfter(chain.top)),
    );
    const blockApply = new Histogram({
      name: 'umbra_block_apply_seconds',
      help: 'Time to validate, execute and store a block',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const txVerify = new Histogram({
      name: 'umbra_tx_verify_seconds',
      help: "Time to verify a transfer's proofs, by ring size",
      labelNames: ['ring'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
    stop = chain.observeTimings({
      blockApplied: (seconds) => blockApply.observe(seconds),
      transferVerified: (ring, seconds) => txVerify.observe({ ring: String(ring) }, seconds),
    });
  }
  if (txPool) {
    readGauge(registry, 'umbra_mempool_transactions', 'Transactions waiting in the pool', () => txPool.size);
    readGauge(registry, 'umbra_mempool_bytes', 'Serialised bytes of the transactions waiting in the pool', () =>
      txPool.pending().reduce((sum, txid) => sum + (txPool.get(txid)?.length ?? 0), 0),
    );
  }
  if (p2p) {
    new Gauge({
      name: 'umbra_peers',
      help: 'P2P connections that completed the handshake, by who dialled',
      labelNames: ['direction'],
      registers: [registry],
      collect() {
        const counts = p2p.counts();
        this.set({ direction: 'inbound' }, counts.incoming);
        this.set({ direction: 'outbound' }, counts.outgoing);
      },
    });
  }
  if (mining) {
    readGauge(registry, 'umbra_miner_hashrate', "The built-in miner's hashes per second (0 when it does not run)", () =>
      mining.minerHashRate(),
    );
  }
  if (miners) registerMinerMetrics(registry, miners);
  return stop;
}
