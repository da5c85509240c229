/**
 * Checks a run of served headers on a HeaderChain (protocol/chain/header-chain.ts) in the node's order: the rules that
 * need no hashing block by block on this thread — cheap — then every miniblock's proof of work of the run at once on
 * the pool's worker threads, then each block's final commitment. The lowest block that fails anything is the one
 * refused, naming the daemon.
 */
import type { Core } from '../../core-native/ts/core.js';
import type { PowCheckPool } from '../../core-native/ts/pow-check-pool.js';
import { checkFinalCommitment, powFailure, type PowChallenge } from '../../protocol/chain/block-checks.js';
import { BlockRejected } from '../../protocol/chain/block-errors.js';
import type { ChainHeader, HeaderChain, LinkedHeader } from '../../protocol/chain/header-chain.js';
import { headerRefused } from './header-refusals.js';
import type { ServedHeader } from './header-source.js';

export interface RunVerification {
  core: Core;
  /** The daemon that served the run (named in refusals). */
  url: string;
  /** Continues the chain the run follows; left at the run's last block (useless after a refusal). */
  headers: HeaderChain;
  /** Gives the pool that hashes the proofs of work (asked only when there are some). */
  pool: () => PowCheckPool;
  /** Hears how many blocks of the run are checked so far. */
  onChecked?: (blocks: number) => void;
}

/** The run's headers, each checked; throws a WalletError refusing the first block that fails. */
export async function verifyRun(run: readonly ServedHeader[], options: RunVerification): Promise<ChainHeader[]> {
  const linked: LinkedHeader[] = [];
  let linkFailure: BlockRejected | undefined;
  for (const served of run) {
    try {
      linked.push(options.headers.link(served.bytes));
    } catch (error) {
      if (!(error instanceof BlockRejected)) throw error;
      linkFailure = error;
      break;
    }
  }
  const powFailures = await failedChallenges(linked, options);
  const refuse = (at: number, reason: BlockRejected): never => {
    const served = run[at]!;
    throw headerRefused(options.url, served.topoheight, served.id, reason);
  };
  linked.forEach(({ block }, at) => {
    const failed = powFailures.get(at);
    if (failed) refuse(at, powFailure(failed));
    try {
      checkFinalCommitment(options.core, block);
    } catch (error) {
      if (error instanceof BlockRejected) refuse(at, error);
      throw error;
    }
  });
  if (linkFailure) refuse(linked.length, linkFailure);
  options.onChecked?.(linked.length);
  return linked.map(({ header }) => header);
}

/** The first challenge each block fails, by the block's index in the run (hashed on the pool). */
async function failedChallenges(
  linked: readonly LinkedHeader[],
  options: RunVerification,
): Promise<Map<number, PowChallenge>> {
  const challenges = linked.flatMap((header, at) => header.pow.map((challenge) => ({ at, challenge })));
  const failures = new Map<number, PowChallenge>();
  if (challenges.length === 0) return failures;
  const perBlock = challenges.length / linked.length;
  const verdicts = await options.pool().check(
    challenges.map(({ challenge }) => challenge),
    (checked) => options.onChecked?.(Math.floor(checked / perBlock)),
  );
  verdicts.forEach((verdict, i) => {
    const { at, challenge } = challenges[i]!;
    if (!verdict && !failures.has(at)) failures.set(at, challenge);
  });
  return failures;
}
