/**
 * What one peer may make this node read: token buckets of messages and bytes per second for each message class —
 * data (the block and transaction answers, large) and control (everything else, small). A message over budget is
 * dropped before it is decoded and reported, so that the caller adds ban points; a peer that keeps flooding is
 * banned. The defaults are far above what an honest peer sends, even while serving a sync.
 */
import { TokenBucket, type Rate } from '../../host/token-bucket.js';
import { MESSAGES } from './wire/messages.js';

export interface ClassLimits {
  messages: Rate;
  bytes: Rate;
}

export interface BudgetLimits {
  control: ClassLimits;
  data: ClassLimits;
}

const MiB = 1024 * 1024;

export const DEFAULT_BUDGET: BudgetLimits = {
  control: { messages: { perSecond: 500, burst: 2_000 }, bytes: { perSecond: 4 * MiB, burst: 16 * MiB } },
  // A data frame may hold ~21 MiB (the largest block with its transactions): the burst admits several at once. The
  // message rate admits a fast sync's small state chunks (a later state comes in ~100 of them, within a second).
  data: { messages: { perSecond: 1_000, burst: 4_000 }, bytes: { perSecond: 48 * MiB, burst: 128 * MiB } },
};

const DATA_KINDS: ReadonlySet<number> = new Set([
  MESSAGES.blocks.kind,
  MESSAGES.txs.kind,
  MESSAGES.headers.kind,
  MESSAGES.chunk.kind,
]);

export class PeerBudget {
  private readonly buckets: Record<keyof BudgetLimits, { messages: TokenBucket; bytes: TokenBucket }>;

  /** `overBudget` is told of every dropped message (the caller penalises the peer). */
  constructor(
    private readonly overBudget: (reason: string) => void,
    limits: BudgetLimits = DEFAULT_BUDGET,
    private readonly clock: () => number = Date.now,
  ) {
    const now = clock();
    const of = (limit: ClassLimits) => ({
      messages: new TokenBucket(limit.messages, now),
      bytes: new TokenBucket(limit.bytes, now),
    });
    this.buckets = { control: of(limits.control), data: of(limits.data) };
  }

  /** Charges a received frame; false (and a report) when it is over budget and must be dropped. */
  admit(kind: number, bytes: number): boolean {
    const kindClass = DATA_KINDS.has(kind) ? 'data' : 'control';
    const bucket = this.buckets[kindClass];
    const now = this.clock();
    const messagesOk = bucket.messages.take(1, now);
    const bytesOk = bucket.bytes.take(bytes, now);
    if (messagesOk && bytesOk) return true;
    this.overBudget(
      `sends ${kindClass} messages faster than allowed (${messagesOk ? 'bytes' : 'messages'} per second)`,
    );
    return false;
  }
}
