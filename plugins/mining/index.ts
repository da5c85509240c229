/**
 * The `mining` plugin: block templates and miniblock collection (NODE.GetBlockTemplate, NODE.SubmitBlock), the
 * getwork server for external miners (`--getwork-bind`), GetInfo's mining figures and the built-in CPU miner
 * (`--mining-threads N --mining-address ADDR`), on every network including the simulator. Its MiningService is
 * provided twice: as `mining` (templates, submission) and as `miniblocks` (the pool P2P shares); `miners` lists the
 * getwork server's miners.
 */
import type { UmbraConfig } from '../../host/config/schema.js';
import type { Logger } from '../../host/logger.js';
import type { Plugin } from '../../host/plugin.js';
import { curvePointCheck, decodeAddress } from '../../protocol/address.js';
import type { NetworkName } from '../../protocol/network.js';
import type { ChainService } from '../../host/services/chain.js';
import { optionalService, provideServices } from '../../host/services/services.js';
import { CpuMiner } from '../../host/mining/cpu-miner.js';
import type { MiningFigures } from '../../host/services/chain-info.js';
import type { MinersService } from '../../host/services/miners.js';
import { GetworkServer } from './getwork-server.js';
import { MinerShares } from './miner-shares.js';
import { MiningService } from './mining-service.js';
import { NetworkHashrate } from './network-hashrate.js';
import { miningMethods } from './rpc.js';

/** The built-in miner the config asks for (checked against the chain: it must mine to a registered key), if any. */
function configuredMiner(
  config: UmbraConfig,
  network: NetworkName,
  chain: ChainService,
  service: MiningService,
  logger: Logger,
): CpuMiner | undefined {
  if (config.miningThreads === 0) return undefined;
  if (!config.miningAddress)
    throw new Error('--mining-threads needs --mining-address (a registered address to mine to)');
  let key: Uint8Array;
  try {
    key = decodeAddress(config.miningAddress, network).publicKey;
  } catch (error) {
    throw new Error(`--mining-address: ${(error as Error).message}`);
  }
  if (!chain.isRegistered(key)) throw new Error('--mining-address is not registered on this chain');
  const miner = new CpuMiner({
    threads: config.miningThreads,
    impl: config.crypto,
    logger,
    nextJob: async () => {
      const job = service.template(key);
      return { jobId: job.id, blob: job.blob, difficulty: job.difficulty };
    },
    submit: async (jobId, blob) => void (await service.submit(jobId, blob)),
  });
  service.onChange(() => void miner.refresh());
  service.reportHashRate(() => miner.hashRate);
  return miner;
}

/** GetInfo's mining fields (docs/rpc.md § NODE.GetInfo). */
function miningFigures(
  service: MiningService,
  hashrate: NetworkHashrate,
  connectedMiners: () => number,
): () => MiningFigures {
  const startedAt = Date.now();
  return () => {
    const rates = hashrate.get();
    const hours = (Date.now() - startedAt) / 3_600_000;
    return {
      connected_miners: connectedMiners(),
      miniblocks_in_memory: service.pooledCount(),
      blocks_count: service.blocksFound,
      miniblocks_accepted_count: service.miniblocksAccepted,
      miniblocks_rejected_count: service.miniblocksRejected,
      mining_velocity: hours > 0 ? Math.round((service.miniblocksAccepted / hours) * 100) / 100 : 0,
      hashrate_1hr: rates.hour,
      hashrate_1d: rates.day,
      hashrate_7d: rates.week,
    };
  };
}

const plugin: Plugin = {
  name: 'mining',
  requires: ['consensus'],
  optional: ['mempool'],
  provides: ['mining', 'miniblocks', 'miners'],
  register(container, config) {
    const { rpcEndpoints, network, core, logger, chain, chainInfo } = container.cradle;
    const log = logger.child('mining');
    const txPool = optionalService(container, 'txPool');
    const clock = optionalService(container, 'clock');
    const service = new MiningService(chain, core, log, clock && (() => clock.now()), () => txPool);
    const keyOf = (address: string): Uint8Array =>
      decodeAddress(address, network.name, curvePointCheck(core)).publicKey;
    for (const method of miningMethods({ keyOf, mining: () => service }))
      rpcEndpoints.get('daemon').registry.add(method);

    const getwork = config.getworkBind
      ? new GetworkServer({
          bind: config.getworkBind,
          service,
          logger: log.child('getwork'),
          registeredKeyOf: (address) => {
            const key = keyOf(address);
            if (!chain.isRegistered(key)) throw new Error('the address is not registered on this chain');
            return key;
          },
        })
      : undefined;
    const shares = new MinerShares(chain);
    const miners: MinersService = {
      connected: () =>
        (getwork?.connected() ?? []).map((miner) => ({
          ...miner,
          share: shares.shareOf(core.blake2s256(keyOf(miner.address)).slice(0, 16)),
        })),
    };
    provideServices(container, { mining: service, miniblocks: service, miners });
    chainInfo.mining = miningFigures(service, new NetworkHashrate(chain), () => getwork?.connected().length ?? 0);

    const miner = configuredMiner(config, network.name, chain, service, log);
    return {
      async start() {
        // A busy getwork port (another daemon of the same network on this machine) costs the miners, not the node.
        await getwork?.start().catch((error: Error) => log.warn(`getwork server not started: ${error.message}`));
        if (!miner) return;
        await miner.start();
        log.info(`built-in miner started on ${config.miningThreads} thread(s) for ${config.miningAddress}`);
      },
      async stop() {
        await miner?.stop();
        await getwork?.stop();
      },
    };
  },
};

export default plugin;
