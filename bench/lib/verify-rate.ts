/**
 * Ring-N transfers verified per second against the state they reference, one by one on this thread and batched on a
 * VerifyPool of one worker per core (as block validation does it): the figures the execution and throughput benches
 * report as tx-verify-ring-N.
 */
import type { Core } from '../../core-native/ts/core.js';
import { VerifyPool } from '../../core-native/ts/proof/verify-pool.js';
import { transferProofItems, verifyTransfer } from '../../protocol/transfer-checks.js';
import { openTestChain, type TestChain } from '../../test/helpers/chain.js';
import { buildTestTransfer, premineAccount, registeredAccounts } from '../../test/helpers/transfers.js';
import { timeIt, timeItAsync } from '../harness.js';

/** Eight ring-N transfers from the premine and the chain whose top they reference. */
export interface VerifySample {
  readonly chain: TestChain;
  readonly transfers: ReturnType<typeof buildTestTransfer>[];
}

export async function verifySample(core: Core, ringSize: number): Promise<VerifySample> {
  const chain = await openTestChain({ core });
  const accounts = await registeredAccounts(chain, Math.max(ringSize - 1, 15));
  const transfers = accounts.slice(0, 8).map((to) =>
    buildTestTransfer(chain, premineAccount(chain), to.key, 1000n, {
      ringSize,
      receiverIndex: 1,
      decoys: accounts.filter((a) => a !== to).map((a) => a.key),
    }),
  );
  return { chain, transfers };
}

const perSecond = (usPerTx: number): number => Math.round((1e6 / usPerTx) * 10) / 10;

/** Transfers verified per second one after another on this thread, by `core`. */
export function oneByOneRate(core: Core, { chain, transfers }: VerifySample, minMs: number): number {
  const gens = core.generators('UMBRA');
  const state = chain.chain.stateAt();
  let next = 0;
  const us = timeIt(
    () => {
      const built = transfers[next++ % transfers.length]!;
      verifyTransfer(core, gens, built.tx, built.txid, (asset, key) => state.getBalance(asset, key));
    },
    { minMs },
  );
  return perSecond(us);
}

/** Transfers verified per second with every transfer's proofs sent to a worker pool (one worker per core) at once. */
export async function batchedRate(core: Core, { chain, transfers }: VerifySample, minMs: number): Promise<number> {
  const gens = core.generators('UMBRA');
  const state = chain.chain.stateAt();
  const pool = new VerifyPool({ impl: core.impl });
  try {
    const items = transfers.flatMap((built) =>
      transferProofItems(core, gens, built.tx, built.txid, (asset, key) => state.getBalance(asset, key)),
    );
    const us = await timeItAsync(() => pool.verify(gens.domain, items), { minMs });
    return perSecond(us / items.length);
  } finally {
    await pool.close();
  }
}
