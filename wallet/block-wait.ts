/**
 * Waits until the daemon reports a sent transaction in a block (NODE.GetTransaction), for a bounded time: the command
 * line and the web wallet both show a transaction's block once it has one, and say so when it takes too long.
 */
import { TARGET_BLOCK_TIME_MS } from '../protocol/chain-params.js';
import type { DaemonClient, TransactionRecord } from './daemon-client.js';

export interface BlockWaitTiming {
  timeoutMs: number;
  intervalMs: number;
}

export const DEFAULT_BLOCK_WAIT: BlockWaitTiming = { timeoutMs: 4 * Number(TARGET_BLOCK_TIME_MS), intervalMs: 250 };

/** The transaction's record once a block holds it; undefined when none does within `timing.timeoutMs`. */
export async function minedRecord(
  daemon: Pick<DaemonClient, 'getTransaction'>,
  txid: string,
  timing: BlockWaitTiming = DEFAULT_BLOCK_WAIT,
): Promise<TransactionRecord | undefined> {
  const deadline = Date.now() + timing.timeoutMs;
  for (;;) {
    const record = await daemon.getTransaction(txid);
    if (record.valid_block !== '') return record;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, timing.intervalMs));
  }
}
