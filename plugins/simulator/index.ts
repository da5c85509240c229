/**
 * The `simulator` plugin (simulator network only): blocks made at once for the premine key whenever transactions
 * wait and every 18 s (`automine`, the default), or on request — the daemon method SIMULATOR.Mine or the signal
 * SIGUSR1 — and the `autoMiner` service `umbra simulator` uses to get its wallets ready.
 */
import { asValue, type AwilixContainer } from 'awilix';
import type { Plugin } from '../../host/plugin.js';
import { ApplicationError, InvalidParamsError } from '../../host/rpc/errors.js';
import { objectParams, p } from '../../host/rpc/params.js';
import type { BaseServices } from '../../host/services/base.js';
import { txPoolOf } from '../../host/services/tx-pool.js';
import { premineKey } from '../../host/protocol/premine.js';
import type { MiningService } from '../mining/mining-service.js';
import { AutoMiner } from './auto-miner.js';

const MAX_BLOCKS_PER_REQUEST = 100;
const running = new WeakMap<AwilixContainer, { miner: AutoMiner; onSignal: () => void }>();

const plugin: Plugin = {
  name: 'simulator',
  requires: ['consensus', 'mempool', 'mining'],
  register(container) {
    const { network, rpcEndpoints } = container.cradle as BaseServices;
    if (network.name !== 'simulator') throw new Error(`the simulator plugin runs only on the simulator network, not ${network.name}`);
    rpcEndpoints.get('daemon').registry.add({
      name: 'SIMULATOR.Mine',
      params: objectParams(p.object({ blocks: p.optional(p.uint(), 1) })),
      handler: async ({ blocks }: { blocks: number }) => {
        const state = running.get(container);
        if (!state) throw new ApplicationError('the simulator is not started yet');
        if (blocks < 1 || blocks > MAX_BLOCKS_PER_REQUEST) throw new InvalidParamsError(`invalid params: 'blocks' must be 1 … ${MAX_BLOCKS_PER_REQUEST}, got ${blocks}`);
        return { blids: await state.miner.mine(blocks), status: 'OK' };
      },
    });
  },
  start(container) {
    const { core, network, config, logger } = container.cradle as BaseServices;
    const mining = container.resolve<{ get(): MiningService | undefined }>('miningHolder').get()!;
    const log = logger.child('simulator');
    const miner = new AutoMiner(mining, txPoolOf(container), premineKey(core, network.name), log);
    const onSignal = (): void => void miner.mine(1).then(([id]) => log.info(`SIGUSR1: mined block ${id}`), (error: Error) => log.warn(`SIGUSR1: ${error.message}`));
    process.on('SIGUSR1', onSignal);
    running.set(container, { miner, onSignal });
    container.register({ autoMiner: asValue(miner) });
    if (config.automine) miner.start();
  },
  stop(container) {
    const state = running.get(container);
    if (!state) return;
    state.miner.stop();
    process.off('SIGUSR1', state.onSignal);
  },
};

export default plugin;
