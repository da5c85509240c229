/**
 * The `mining` plugin: block templates and miniblock collection (NODE.GetBlockTemplate, NODE.SubmitBlock) and the
 * built-in CPU miner (`--mining-threads N --mining-address ADDR`), on every network including the simulator. Its
 * MiningService is provided twice: as `mining` (templates, submission) and as `miniblocks` (the pool P2P shares).
 */
import type { UmbraConfig } from '../../host/config/schema.js';
import type { Logger } from '../../host/logger.js';
import type { Plugin } from '../../host/plugin.js';
import { curvePointCheck, decodeAddress } from '../../host/protocol/address.js';
import type { NetworkName } from '../../host/protocol/network.js';
import type { ChainService } from '../../host/services/chain.js';
import { optionalService, provideServices } from '../../host/services/services.js';
import { CpuMiner } from './cpu-miner.js';
import { MiningService } from './mining-service.js';
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

const plugin: Plugin = {
  name: 'mining',
  requires: ['consensus'],
  optional: ['mempool'],
  provides: ['mining', 'miniblocks'],
  register(container, config) {
    const { rpcEndpoints, network, core, logger, chain } = container.cradle;
    const log = logger.child('mining');
    const txPool = optionalService(container, 'txPool');
    const clock = optionalService(container, 'clock');
    const service = new MiningService(chain, core, log, clock && (() => clock.now()), () => txPool);
    provideServices(container, { mining: service, miniblocks: service });
    const keyOf = (address: string): Uint8Array =>
      decodeAddress(address, network.name, curvePointCheck(core)).publicKey;
    for (const method of miningMethods({ keyOf, mining: () => service }))
      rpcEndpoints.get('daemon').registry.add(method);

    const miner = configuredMiner(config, network.name, chain, service, log);
    if (!miner) return;
    return {
      async start() {
        await miner.start();
        log.info(`built-in miner started on ${config.miningThreads} thread(s) for ${config.miningAddress}`);
      },
      stop: () => miner.stop(),
    };
  },
};

export default plugin;
