/**
 * Waits until the daemon reports a sent transaction in a block (NODE.GetTransaction), for a bounded time: a few block
 * times, then a clear failure that names the txid and says it may still be mined.
 */
import type { DaemonClient, TransactionRecord } from '../../wallet/daemon-client.js';
import { TARGET_BLOCK_TIME_MS } from '../../protocol/chain-params.js';
import { CliError, CliErrorCode } from '../cli-error.js';

export interface BlockWaitTiming {
  timeoutMs: number;
  intervalMs: number;
}

const DEFAULT_TIMING: BlockWaitTiming = { timeoutMs: 4 * Number(TARGET_BLOCK_TIME_MS), intervalMs: 250 };

export async function waitForBlock(
  daemon: Pick<DaemonClient, 'getTransaction'>,
  txid: string,
  timing: BlockWaitTiming = DEFAULT_TIMING,
): Promise<TransactionRecord> {
  const deadline = Date.now() + timing.timeoutMs;
  for (;;) {
    const record = await daemon.getTransaction(txid);
    if (record.valid_block !== '') return record;
    if (Date.now() >= deadline)
      throw new CliError(
        CliErrorCode.NotMined,
        `transaction ${txid} is not in a block after ${Math.round(timing.timeoutMs / 1000)} s; it was sent and may still be mined (see umbra wallet history)`,
      );
    await new Promise((resolve) => setTimeout(resolve, timing.intervalMs));
  }
}
