/**
 * The `simulator` plugin (simulator network only): blocks made at once for the premine key whenever transactions
 * wait and every 18 s (`automine`, the default), or on request — the daemon method SIMULATOR.Mine or the signal
 * SIGUSR1 — and the `simulator` service `umbra simulator` uses to get its wallets ready.
 */
import { defaultCacheDir } from '../../host/config/defaults.js';
import type { Plugin } from '../../host/plugin.js';
import { premineKey, premineSecret } from '../../host/protocol/premine.js';
import { InvalidParamsError } from '../../host/rpc/errors.js';
import { objectParams, p } from '../../host/rpc/params.js';
import { provideServices } from '../../host/services/services.js';
import { BalanceDecoder } from '../../wallet/balance-decoder.js';
import { AutoMiner } from './auto-miner.js';
import { registerAndFund } from './fund-accounts.js';

const MAX_BLOCKS_PER_REQUEST = 100;

const plugin: Plugin = {
  name: 'simulator',
  requires: ['consensus', 'mempool', 'mining'],
  provides: ['simulator'],
  register(container, config) {
    const { core, network, logger, rpcEndpoints, chain, txPool, mining } = container.cradle;
    if (network.name !== 'simulator')
      throw new Error(`the simulator plugin runs only on the simulator network, not ${network.name}`);
    const log = logger.child('simulator');
    const premine = premineKey(core, network.name);
    const miner = new AutoMiner(mining, () => txPool, premine, log);
    provideServices(container, {
      simulator: {
        mine: (blocks) => miner.mine(blocks),
        registerAndFund: (accounts, amount) => {
          const decoder = new BalanceDecoder(core, core.generators(network.generatorDomain).G, defaultCacheDir());
          const funding = {
            core,
            domain: network.generatorDomain,
            chain,
            pool: txPool,
            decoder,
            premineSecret: premineSecret(core, network.name),
            premineKey: premine,
          };
          return registerAndFund({ ...funding, mine: () => miner.mine(1) }, accounts, amount);
        },
      },
    });
    rpcEndpoints.get('daemon').registry.add({
      name: 'SIMULATOR.Mine',
      params: objectParams(p.object({ blocks: p.optional(p.uint(), 1) })),
      handler: async ({ blocks }: { blocks: number }) => {
        if (blocks < 1 || blocks > MAX_BLOCKS_PER_REQUEST)
          throw new InvalidParamsError(`invalid params: 'blocks' must be 1 … ${MAX_BLOCKS_PER_REQUEST}, got ${blocks}`);
        return { blids: await miner.mine(blocks), status: 'OK' };
      },
    });
    const onSignal = (): void =>
      void miner.mine(1).then(
        ([id]) => log.info(`SIGUSR1: mined block ${id}`),
        (error: Error) => log.warn(`SIGUSR1: ${error.message}`),
      );
    return {
      start() {
        process.on('SIGUSR1', onSignal);
        if (config.automine) miner.start();
      },
      stop() {
        miner.stop();
        process.off('SIGUSR1', onSignal);
      },
    };
  },
};

export default plugin;
