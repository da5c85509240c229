/**
 * Where a wallet's header chain starts: a block it trusts without checking the chain below — its network's genesis,
 * a checkpoint shipped with the release (protocol/chain/checkpoints.ts), or one the user names as HEIGHT:HASH — and
 * the first header, built from a daemon's copy of that block once its id is the trusted one.
 *
 * Genesis carries everything the next block's checks need. Above genesis the block's difficulty and the work through
 * it are not in the block: they are taken from the daemon, held to the block's own proof of work, and the block
 * before it is fetched too, its timestamp proven by the link (the difficulty rule reads it).
 */
import type { Core } from '../../core-native/ts/core.js';
import type { PowCheckPool } from '../../core-native/ts/pow-check-pool.js';
import { decodeBlock, type Block } from '../../protocol/block.js';
import { equalBytes, fromHex } from '../../protocol/bytes.js';
import { CHAIN_PARAMS } from '../../protocol/chain-params.js';
import {
  checkFinalCommitment,
  checkMiniblockRules,
  powChallenges,
  powFailure,
} from '../../protocol/chain/block-checks.js';
import { BlockErrorCode, BlockRejected } from '../../protocol/chain/block-errors.js';
import type { Checkpoint } from '../../protocol/chain/checkpoints.js';
import type { NetworkName } from '../../protocol/network.js';
import { WalletError, WalletErrorCode } from '../wallet-error.js';
import { answerRefused, daemonBehind, headerRefused, notOnTrustedChain } from './header-refusals.js';
import type { HeaderSource, ServedHeader } from './header-source.js';
import { VerifiedChain } from './verified-chain.js';

/** A checkpoint as the user writes it: `HEIGHT:HASH` (the block id, 64 hex). */
export function parseCheckpoint(text: string): Checkpoint {
  const match = /^(\d{1,19}):([0-9a-fA-F]{64})$/.exec(text.trim());
  if (!match)
    throw new WalletError(
      WalletErrorCode.BadCheckpoint,
      `a checkpoint is HEIGHT:HASH (a block height, a colon, the block's 64-hex id), got ${JSON.stringify(text)}`,
    );
  return { height: BigInt(match[1]!), id: fromHex(match[2]!, 32) };
}

export interface StartContext {
  core: Core;
  network: NetworkName;
  pool: () => PowCheckPool;
}

/** The chain of one header, `checkpoint`'s block, as the daemon behind `source` serves it; refused unless it is that block. */
export async function fetchTrustedStart(
  source: HeaderSource,
  checkpoint: Checkpoint,
  context: StartContext,
): Promise<VerifiedChain> {
  const params = CHAIN_PARAMS[context.network];
  const from = checkpoint.height === 0n ? 0n : checkpoint.height - 1n;
  const wanted = Number(checkpoint.height - from) + 1;
  const { headers, top } = await source.fetchAll(from, wanted);
  if (headers.length < wanted) {
    if (top < checkpoint.height) throw daemonBehind(source.url, top, checkpoint.height, "the wallet's checkpoint");
    throw answerRefused(source.url, `served no block ${checkpoint.height} though its top is at ${top}`);
  }
  const served = headers[headers.length - 1]!;
  if (!equalBytes(served.id, checkpoint.id)) throw notOnTrustedChain(source.url, checkpoint, served.id);
  const block = decoded(source.url, served);
  if (checkpoint.height === 0n) {
    const work = params.bootstrapDifficulty;
    return new VerifiedChain({ network: context.network, parentTimestamp: null }, [
      { ...firstHeader(served, block), difficulty: work, cumulativeWork: work },
    ]);
  }
  const parent = headers[0]!;
  const parentBlock = decoded(source.url, parent);
  const refuse = (reason: BlockRejected): never => {
    throw headerRefused(source.url, checkpoint.height, served.id, reason);
  };
  if (parentBlock.height !== from || block.tips.length !== 1 || !equalBytes(block.tips[0]!, parent.id))
    refuse(new BlockRejected(BlockErrorCode.UnknownTip, `it does not follow the block the daemon serves at ${from}`));
  const fixed = params.fixedDifficulty;
  if (
    served.difficulty < params.minimumDifficulty ||
    (fixed !== null && served.difficulty !== fixed) ||
    served.cumulativeWork < served.difficulty
  )
    throw answerRefused(
      source.url,
      `claims difficulty ${served.difficulty} and work ${served.cumulativeWork} for block ${checkpoint.height}, which no block of the ${context.network} can have`,
    );
  try {
    checkMiniblockRules(block);
    const challenges = powChallenges(params, block, served.difficulty);
    const verdicts = challenges.length > 0 ? await context.pool().check(challenges) : [];
    const failed = verdicts.indexOf(false);
    if (failed >= 0) throw powFailure(challenges[failed]!);
    checkFinalCommitment(context.core, block);
  } catch (error) {
    if (error instanceof BlockRejected) refuse(error);
    throw error;
  }
  return new VerifiedChain({ network: context.network, parentTimestamp: parentBlock.timestamp }, [
    { ...firstHeader(served, block), difficulty: served.difficulty, cumulativeWork: served.cumulativeWork },
  ]);
}

const firstHeader = (served: ServedHeader, block: Block) => ({
  id: served.id,
  height: block.height,
  timestamp: block.timestamp,
  stateRoot: block.stateRoot,
});

function decoded(url: string, served: ServedHeader): Block {
  try {
    return decodeBlock(served.bytes);
  } catch (error) {
    throw headerRefused(
      url,
      served.topoheight,
      served.id,
      new BlockRejected(BlockErrorCode.Malformed, `malformed block: ${(error as Error).message}`),
    );
  }
}
