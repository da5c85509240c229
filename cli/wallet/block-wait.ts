/**
 * Waits until the daemon reports a sent transaction in a block, for a bounded time: a few block times, then a clear
 * failure that names the txid and says it may still be mined.
 */
import { DEFAULT_BLOCK_WAIT, minedRecord, type BlockWaitTiming } from '../../wallet/block-wait.js';
import type { DaemonClient, TransactionRecord } from '../../wallet/daemon-client.js';
import { CliError, CliErrorCode } from '../cli-error.js';

export async function waitForBlock(
  daemon: Pick<DaemonClient, 'getTransaction'>,
  txid: string,
  timing: BlockWaitTiming = DEFAULT_BLOCK_WAIT,
): Promise<TransactionRecord> {
  const record = await minedRecord(daemon, txid, timing);
  if (record) return record;
  throw new CliError(
    CliErrorCode.NotMined,
    `transaction ${txid} is not in a block after ${Math.round(timing.timeoutMs / 1000)} s; it was sent and may still be mined (see umbra wallet history)`,
  );
}
