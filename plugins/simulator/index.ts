/**
 * The `simulator` plugin (simulator network only): blocks made at once for the premine key whenever transactions
 * wait and every 18 s (`automine`, the default), or on request — SIMULATOR.Mine or the signal SIGUSR1 — and the
 * controls of docs/rpc.md § Simulator methods (the next block's timestamp, snapshot and revert, funding from the
 * premine); and the `simulator` service `umbra simulator` uses to get its wallets ready and hear of reverts.
 */
import type { Plugin } from '../../host/plugin.js';
import { addressCodec } from '../../protocol/address.js';
import { toHex } from '../../protocol/bytes.js';
import { premineKey, premineSecret } from '../../protocol/premine.js';
import { provideServices } from '../../host/services/services.js';
import { BalanceDecoder } from '../../wallet/balance-decoder.js';
import { AutoMiner } from './auto-miner.js';
import { payFromPremine, registerAndFund, type FundingDeps } from './fund-accounts.js';
import { simulatorMethods } from './rpc.js';
import { Snapshots } from './snapshots.js';

const plugin: Plugin = {
  name: 'simulator',
  requires: ['consensus', 'mempool', 'mining'],
  provides: ['simulator'],
  register(container, config) {
    const { core, network, logger, rpcEndpoints, chain, txPool, mining, clock } = container.cradle;
    if (network.name !== 'simulator')
      throw new Error(`the simulator plugin runs only on the simulator network, not ${network.name}`);
    const log = logger.child('simulator');
    const premine = premineKey(core, network.name);
    const miner = new AutoMiner(chain, clock, mining, () => txPool, premine, log);
    const funding: FundingDeps = {
      core,
      domain: network.generatorDomain,
      chain,
      pool: txPool,
      decoder: new BalanceDecoder(core, core.generators(network.generatorDomain).G, config.cacheDir),
      premineSecret: premineSecret(core, network.name),
      premineKey: premine,
      mine: () => miner.mine(1),
      exclusive: (task) => miner.exclusive(task),
      spent: new Map(),
    };
    const snapshots = new Snapshots({
      chain,
      pool: txPool,
      spent: funding.spent,
      exclusive: (task) => miner.exclusive(task),
    });
    provideServices(container, {
      simulator: {
        mine: (blocks) => miner.mine(blocks),
        registerAndFund: (accounts, amount) => registerAndFund(funding, accounts, amount),
        onRevert: (listener) => snapshots.onRevert(listener),
      },
    });
    const methods = simulatorMethods({
      chain,
      miner,
      snapshots,
      addresses: addressCodec(network.name, core),
      fund: async (key, amount, scid) => {
        // Built on a top no block is being made on; the block after it includes it (automine may make that one).
        const txid = await payFromPremine(funding, scid, [{ key, amount }]);
        await miner.mine(1);
        return { txid: toHex(txid), blid: toHex(chain.includingBlock(txid)!) };
      },
    });
    for (const method of methods) rpcEndpoints.get('daemon').registry.add(method);
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
