/**
 * The `consensus` plugin: the chain (blocks, fork choice, versioned state) and its daemon RPC methods. It registers
 * the `chain` service (host/services/chain.ts) for the other plugins, and pushes `Block` and `Height` notifications to
 * WebSocket clients whenever the main chain grows.
 */
import { asValue, type AwilixContainer } from 'awilix';
import { VerifyPool } from '../../core-native/ts/proof/verify-pool.js';
import type { Plugin } from '../../host/plugin.js';
import type { BaseServices } from '../../host/services/base.js';
import { UMBRA_VERSION } from '../../host/version.js';
import { curvePointCheck, decodeAddress, encodeAddress } from '../../host/protocol/address.js';
import type { ContractVm } from '../../host/services/contract-vm.js';
import { balanceMath } from './balance-math.js';
import { Chain } from './chain.js';
import { daemonEchoMethods } from './rpc/echo-ping.js';
import { accountMethods } from './rpc/account-methods.js';
import { transactionMethods } from './rpc/transaction-methods.js';
import { txPoolOf } from '../../host/services/tx-pool.js';
import { chainMethods, type InfoContributions } from './rpc/chain-methods.js';
import { contractMethods } from './rpc/contract-methods.js';
import { StateAccounts } from './state-accounts.js';
import { transactionExecutor } from './tx-executor.js';
import { StateDb } from './state/state-db.js';

/** The chain, created at start (it may write the genesis block); RPC methods look it up when called. */
class ChainHolder {
  chain?: Chain;
  verifyPool?: VerifyPool;

  get(): Chain {
    if (!this.chain) throw new Error('the chain is not open yet');
    return this.chain;
  }
}

const holders = new WeakMap<AwilixContainer, ChainHolder>();

/** The contract VM, when the dvm plugin is loaded. */
const contractVmOf = (container: AwilixContainer): ContractVm | undefined =>
  container.hasRegistration('contractVm') ? container.resolve<ContractVm>('contractVm') : undefined;

const plugin: Plugin = {
  name: 'consensus',
  requires: [],
  register(container) {
    const { rpcEndpoints, network, core } = container.cradle as BaseServices;
    const holder = new ChainHolder();
    holders.set(container, holder);
    const info: InfoContributions = {};
    container.register({ chainInfo: asValue(info) });
    const daemon = rpcEndpoints.get('daemon');
    for (const method of daemonEchoMethods) daemon.registry.add(method);
    const methods = chainMethods({
      chain: () => holder.get(),
      network,
      version: UMBRA_VERSION,
      addressOf: (key) => encodeAddress(network.name, key),
      info,
    });
    for (const method of methods) daemon.registry.add(method);
    const addressOf = (key: Uint8Array): string => encodeAddress(network.name, key);
    const keyOf = (address: string): Uint8Array => decodeAddress(address, network.name, curvePointCheck(core)).publicKey;
    const contractVm = (): ContractVm | undefined => contractVmOf(container);
    for (const method of contractMethods({ chain: () => holder.get(), contractVm, addressOf, keyOf })) daemon.registry.add(method);
    for (const method of accountMethods({ chain: () => holder.get(), addressOf, keyOf })) daemon.registry.add(method);
    for (const method of transactionMethods({ chain: () => holder.get(), core, pool: txPoolOf(container), addressOf })) daemon.registry.add(method);
  },
  async start(container) {
    const { store, core, network, logger, rpcEndpoints, config } = container.cradle as BaseServices;
    // Block validation verifies transfer proofs on every core; workers start on the first block with transfers.
    const verifyPool = new VerifyPool({ impl: config.crypto });
    holders.get(container)!.verifyPool = verifyPool;
    const accounts = new StateAccounts(new StateDb(store, (data) => core.blake2s256(data)));
    const math = balanceMath(core, network.generatorDomain);
    const chain = await Chain.open({
      store, core, network: network.name, accounts, math, logger: logger.child('consensus'),
      executeTransactions: transactionExecutor({ core, network: network.name, math, contractVm: () => contractVmOf(container), logger: logger.child('execution'), verifyPool }),
    });
    holders.get(container)!.chain = chain;
    container.register({ chain: asValue(chain) });
    const daemon = rpcEndpoints.get('daemon');
    chain.onBlock((meta, outcome) => {
      daemon.notify('Block');
      if (outcome.status === 'main') daemon.notify('Height');
    });
    logger.child('consensus').info(`chain at height ${chain.top.height}, top ${Buffer.from(chain.top.id).toString('hex')}`);
  },
  async stop(container) {
    await holders.get(container)?.verifyPool?.close();
  },
};

export default plugin;
