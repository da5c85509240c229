/**
 * The `mining` plugin: block templates and miniblock collection (NODE.GetBlockTemplate, NODE.SubmitBlock) and the
 * built-in CPU miner (`--mining-threads N --mining-address ADDR`), on every network including the simulator.
 */
import type { AwilixContainer } from 'awilix';
import { asValue } from 'awilix';
import type { Plugin } from '../../host/plugin.js';
import { curvePointCheck, decodeAddress } from '../../host/protocol/address.js';
import type { BaseServices } from '../../host/services/base.js';
import type { ChainService } from '../../host/services/chain.js';
import { txPoolOf } from '../../host/services/tx-pool.js';
import { CpuMiner } from './cpu-miner.js';
import { MiningService } from './mining-service.js';
import { miningMethods } from './rpc.js';

const miners = new WeakMap<AwilixContainer, CpuMiner>();

const plugin: Plugin = {
  name: 'mining',
  requires: ['consensus'],
  register(container) {
    const { rpcEndpoints, network, core } = container.cradle as BaseServices;
    let service: MiningService | undefined;
    container.register({ miningHolder: asValue({ get: () => service, set: (s: MiningService) => (service = s) }) });
    const keyOf = (address: string): Uint8Array => decodeAddress(address, network.name, curvePointCheck(core)).publicKey;
    for (const method of miningMethods({
      keyOf,
      mining: () => {
        if (!service) throw new Error('mining is not started yet');
        return service;
      },
    })) {
      rpcEndpoints.get('daemon').registry.add(method);
    }
  },
  async start(container) {
    const { core, logger, config, network } = container.cradle as BaseServices;
    const chain = container.resolve<ChainService>('chain');
    const log = logger.child('mining');
    const service = new MiningService(chain, core, log, undefined, txPoolOf(container));
    container.resolve<{ set(s: MiningService): void }>('miningHolder').set(service);
    container.register({ miniblocks: asValue(service) });
    if (config.miningThreads === 0) return;
    if (!config.miningAddress) throw new Error('--mining-threads needs --mining-address (a registered address to mine to)');
    let key: Uint8Array;
    try {
      key = decodeAddress(config.miningAddress, network.name).publicKey;
    } catch (error) {
      throw new Error(`--mining-address: ${(error as Error).message}`);
    }
    if (!chain.isRegistered(key)) throw new Error('--mining-address is not registered on this chain');
    const miner = new CpuMiner({
      threads: config.miningThreads,
      impl: config.crypto,
      logger: log,
      nextJob: async () => {
        const job = service.template(key);
        return { jobId: job.id, blob: job.blob, difficulty: job.difficulty };
      },
      submit: async (jobId, blob) => void (await service.submit(jobId, blob)),
    });
    service.onChange(() => void miner.refresh());
    miners.set(container, miner);
    await miner.start();
    log.info(`built-in miner started on ${config.miningThreads} thread(s) for ${config.miningAddress}`);
  },
  async stop(container) {
    await miners.get(container)?.stop();
    miners.delete(container);
  },
};

export default plugin;
