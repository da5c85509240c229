/**
 * The `consensus` plugin: the chain (blocks, fork choice, versioned state) and its daemon RPC methods. It opens the
 * chain when it registers (a fresh store gets the genesis block) and provides it as the `chain` service, with
 * `chainInfo` for the GetInfo figures of other plugins; it pushes `Block` and `Height` notifications to WebSocket
 * clients whenever the main chain grows, and publishes the `block` (each stored block's header) and `reorg` (the old
 * and the new top) topics to the clients subscribed to them. With the `dvm` plugin, contracts run.
 */
import { VerifyPool } from '../../core-native/ts/proof/verify-pool.js';
import type { Plugin } from '../../host/plugin.js';
import { curvePointCheck, decodeAddress, encodeAddress } from '../../protocol/address.js';
import { toHex } from '../../protocol/bytes.js';
import type { BlockMeta } from '../../host/services/chain.js';
import type { InfoContributions } from '../../host/services/chain-info.js';
import { optionalService, provideServices } from '../../host/services/services.js';
import { UMBRA_VERSION } from '../../host/version.js';
import { balanceMath } from './balance-math.js';
import { Chain } from './chain.js';
import { ChainPruner, pruningPolicy } from './chain-pruner.js';
import { ChainTimings } from './chain-timings.js';
import { accountMethods } from './rpc/account-methods.js';
import { balanceChangesMethod } from './rpc/balance-changes-method.js';
import { chainBlockHeader, chainMethods } from './rpc/chain-methods.js';
import { contractMethods } from './rpc/contract-methods.js';
import { daemonEchoMethods } from './rpc/echo-ping.js';
import { headerMethods } from './rpc/header-methods.js';
import { paymentProofMethod } from './rpc/payment-proof-method.js';
import { proofMethods } from './rpc/proof-methods.js';
import { transactionMethods } from './rpc/transaction-methods.js';
import { Snapshots } from './snapshots.js';
import { StateAccounts } from './state-accounts.js';
import { StateDb } from './state/state-db.js';
import { transactionExecutor } from './tx-executor.js';

const plugin: Plugin = {
  name: 'consensus',
  requires: [],
  optional: ['dvm'],
  provides: ['chain', 'chainInfo', 'snapshots'],
  async register(container, config) {
    const { store, core, network, logger, rpcEndpoints } = container.cradle;
    const clock = optionalService(container, 'clock');
    const contractVm = optionalService(container, 'contractVm');
    // Block validation verifies transfer proofs on worker threads (none: on this thread); they start on the first
    // block with transfers.
    const policy = pruningPolicy(config);
    const verifyPool =
      config.verifyWorkers > 0 ? new VerifyPool({ impl: config.crypto, size: config.verifyWorkers }) : undefined;
    const stateDb = new StateDb(
      store,
      (data) => core.blake2s256(data),
      (data, ends) => core.blake2s256Many(data, ends),
    );
    const accounts = new StateAccounts(stateDb);
    const math = balanceMath(core, network.generatorDomain);
    const timings = new ChainTimings();
    const chain = await Chain.open({
      store,
      core,
      network: network.name,
      accounts,
      math,
      logger: logger.child('consensus'),
      now: clock && (() => clock.now()),
      timings,
      executeTransactions: transactionExecutor({
        core,
        network: network.name,
        math,
        contractVm,
        logger: logger.child('execution'),
        verifyPool,
        timings,
      }),
    });
    const info: InfoContributions = {};
    const now = clock ? () => clock.now() : () => BigInt(Date.now());
    const snapshots = new Snapshots({ store, core, chain, db: stateDb, now });
    provideServices(container, { chain, chainInfo: info, snapshots });

    const daemon = rpcEndpoints.get('daemon');
    const addressOf = (key: Uint8Array): string => encodeAddress(network.name, key);
    daemon.addTopic('block');
    daemon.addTopic('reorg');
    // The main chain is linear: a top's topoheight is its height (the replaced top's, when it was the top).
    const topOf = (meta: BlockMeta) => ({
      hash: toHex(meta.id),
      height: Number(meta.height),
      topoheight: Number(meta.height),
    });
    chain.onBlock((meta, outcome) => {
      daemon.notify('Block');
      if (outcome.status === 'main') daemon.notify('Height');
      daemon.publish('block', () => ({ block_header: chainBlockHeader(chain, meta, addressOf) }));
      const previousTop = outcome.status === 'main' ? outcome.previousTop : undefined;
      if (previousTop) daemon.publish('reorg', () => ({ old_top: topOf(previousTop), new_top: topOf(meta) }));
    });
    const keyOf = (address: string): Uint8Array =>
      decodeAddress(address, network.name, curvePointCheck(core)).publicKey;
    // The mempool registers after this plugin (it needs the chain), so the pool is looked up per call.
    const pool = () => optionalService(container, 'txPool');
    for (const method of [
      ...daemonEchoMethods,
      ...chainMethods({ chain, network, version: UMBRA_VERSION, addressOf, info }),
      ...contractMethods({ chain, contractVm, addressOf, keyOf, now }),
      ...accountMethods({ chain, addressOf, keyOf }),
      balanceChangesMethod({ chain, keyOf }),
      ...headerMethods({ chain }),
      ...transactionMethods({ chain, core, pool, addressOf }),
      ...proofMethods({ chain, nodes: stateDb.persisted }),
      paymentProofMethod({ chain, pool, core, network: network.name }),
    ]) {
      daemon.registry.add(method);
    }
    logger
      .child('consensus')
      .info(`chain at height ${chain.top.height}, top ${Buffer.from(chain.top.id).toString('hex')}`);
    const pruner = new ChainPruner({ chain, stateDb, policy, logger: logger.child('pruning') });
    return {
      start: () => pruner.start(),
      stop: async () => {
        await pruner.stop();
        await verifyPool?.close();
      },
    };
  },
};

export default plugin;
