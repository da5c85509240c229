/** A real chain (real store, state, crypto core, contract VM, transaction pool, mining service) for consensus and mining tests. */
import { loadCore, type Core } from '../../core-native/ts/index.js';
import { meetsTarget } from '../../core-native/ts/pow-target.js';
import type { VerifyPool } from '../../core-native/ts/proof/verify-pool.js';
import type { App } from '../../host/app.js';
import { createLogger, type Logger } from '../../host/logger.js';
import type { NetworkName } from '../../protocol/network.js';
import { NETWORKS } from '../../protocol/network.js';
import type { ChainService } from '../../host/services/chain.js';
import type { KeyValueStore } from '../../host/storage/kv-store.js';
import { MemoryStore } from '../../host/storage/memory-store.js';
import { balanceMath } from '../../plugins/consensus/balance-math.js';
import { Chain } from '../../plugins/consensus/chain.js';
import { ChainTimings } from '../../plugins/consensus/chain-timings.js';
import { premineKey } from '../../protocol/premine.js';
import { StateAccounts } from '../../plugins/consensus/state-accounts.js';
import { StateDb } from '../../plugins/consensus/state/state-db.js';
import { DvmContractVm } from '../../plugins/dvm/contract-vm.js';
import { TxPool } from '../../plugins/mempool/tx-pool.js';
import { MiningService } from '../../plugins/mining/mining-service.js';
import { transactionExecutor } from '../../plugins/consensus/tx-executor.js';
import { addressCodec } from '../../protocol/address.js';

export interface TestChain {
  core: Core;
  store: KeyValueStore;
  chain: Chain;
  accounts: StateAccounts;
  mining: MiningService;
  pool: TxPool;
  network: NetworkName;
  /** The contract VM the chain executes contracts with. */
  contractVm: DvmContractVm;
  premine: Uint8Array;
  /** The clock the chain and the miner see, ms; tests move it forward. */
  clock: { now: bigint };
}

export async function openTestChain(
  options: {
    network?: NetworkName;
    store?: KeyValueStore;
    core?: Core;
    logger?: Logger;
    /** How long a template's execution holds the event loop at a time, ms (the executor's default otherwise). */
    templateSliceMs?: number;
    /** Worker threads that verify proofs, as a node's (none: on this thread). */
    verifyPool?: VerifyPool;
  } = {},
): Promise<TestChain> {
  const network = options.network ?? 'simulator';
  const core = options.core ?? (await loadCore({ impl: 'auto' }));
  const store = options.store ?? new MemoryStore();
  const clock = { now: 1_700_000_000_000n };
  const accounts = new StateAccounts(
    new StateDb(
      store,
      (data) => core.blake2s256(data),
      (data, ends) => core.blake2s256Many(data, ends),
    ),
  );
  const logger = options.logger ?? createLogger('error');
  const math = balanceMath(core, NETWORKS[network].generatorDomain);
  const vm = new DvmContractVm(core, addressCodec(network, core));
  // Shared as the consensus plugin shares it: observers hear of the transfer verifications too.
  const timings = new ChainTimings();
  const chain = await Chain.open({
    store,
    core,
    network,
    accounts,
    logger,
    now: () => clock.now,
    math,
    timings,
    executeTransactions: transactionExecutor({
      core,
      network,
      math,
      contractVm: vm,
      logger,
      timings,
      ...(options.templateSliceMs === undefined ? {} : { templateSliceMs: options.templateSliceMs }),
      ...(options.verifyPool === undefined ? {} : { verifyPool: options.verifyPool }),
    }),
  });
  const pool = new TxPool(chain, (data) => core.keccak256(data), network);
  pool.connect();
  const mining = new MiningService(
    chain,
    core,
    logger,
    () => clock.now,
    () => pool,
  );
  return {
    core,
    store,
    chain,
    accounts,
    mining,
    pool,
    network,
    contractVm: vm,
    premine: premineKey(core, network),
    clock,
  };
}

/**
 * Mines one block on the current top through templates and submissions, as an external miner would: nine ordinary
 * miniblocks then the final one, each solved by trying nonces until it meets its target (instant on the simulator).
 */
export async function mineBlock(test: TestChain, minerKey: Uint8Array = test.premine): Promise<string> {
  test.clock.now += 18_000n;
  for (;;) {
    const job = test.mining.template(minerKey);
    const blob = solve(test, job.blob, job.difficulty);
    const result = await test.mining.submit(job.id, blob);
    if (result.block_found) return result.blid!;
  }
}

/** Varies the nonce until the blob meets the difficulty (or at once when the network does not check PoW). */
export function solve(test: { chain: ChainService; core: Core }, blob: Uint8Array, difficulty: bigint): Uint8Array {
  if (!test.chain.params.checkPow) return blob;
  const candidate = Uint8Array.from(blob);
  const view = new DataView(candidate.buffer);
  for (let nonce = 0; ; nonce++) {
    view.setUint32(44, nonce);
    if (meetsTarget(test.core.powHash(candidate), difficulty)) return candidate;
  }
}

/**
 * Mines `count` blocks on a running app as an external miner would, with proof of work where the network checks it,
 * each block `gapMs` after its parent on the node's clock (which the test moves, as the simulator does).
 */
export async function mineSpaced(app: App, count: number, gapMs: bigint): Promise<void> {
  const { chain, core, clock } = app.container.cradle;
  const mining = app.container.cradle.mining as MiningService;
  const miner = premineKey(core, app.container.cradle.network.name);
  const last = chain.top.height + BigInt(count);
  while (chain.top.height < last) {
    clock.set(chain.top.timestamp + gapMs);
    const job = mining.template(miner);
    await mining.submit(job.id, solve({ chain, core }, job.blob, job.difficulty));
  }
}
