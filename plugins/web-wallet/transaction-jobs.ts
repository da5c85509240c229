/**
 * Transactions the page sends, through the wallet library: what a transfer of the native coin or a token would cost
 * before it is confirmed (fee, always in the native coin; ring; the amount "max" leaves), then each sent transaction as a job whose steps the page follows live — building
 * the proof and sending, sent (its txid), in block N, and a contract transaction's outcome. Whatever would be refused
 * (a pending transaction, a ring the chain cannot fill, a contract call whose trial fails) is refused before the job.
 */
import { randomUUID } from 'node:crypto';
import { describeOutcome } from '../../protocol/contract-outcome-text.js';
import { coinsText, parseAmount } from '../../protocol/coin-amount.js';
import { minedRecord } from '../../wallet/block-wait.js';
import { requestFee } from '../../wallet/fees.js';
import type { TransferRequest } from '../../wallet/transfer-sender.js';
import { NATIVE_ASSET } from '../../wallet/wallet-constants.js';
import { WalletError, WalletErrorCode } from '../../wallet/wallet-error.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import type { Job, SendPreview } from './api-types.js';
import type { AssetNames } from './asset-names.js';
import { amountText } from './wallet-views.js';

export interface SendForm {
  destination: string;
  /** The asset sent: 64 hex, zeros for the native coin. */
  scid: string;
  /** In the asset's units as typed, or `max`. */
  amount: string;
  ring: number;
}

/** Jobs kept for the page to show: the last few. */
const KEPT_JOBS = 20;

export class TransactionJobs {
  private readonly jobs = new Map<string, Job>();

  constructor(
    private readonly wallet: WalletService,
    private readonly names: AssetNames,
    private readonly changed: () => void,
  ) {}

  /** The jobs, newest first. */
  list(): Job[] {
    return [...this.jobs.values()].reverse();
  }

  /** The transfer `form` asks for, its fee and ring, checked as sending would check it. */
  async previewSend(form: SendForm): Promise<{ preview: SendPreview; request: TransferRequest }> {
    const { address } = await this.wallet.resolve(form.destination);
    // The ring asked for, refused when the chain has too few accounts to fill it.
    const ring = await this.wallet.transfers.chooseRing(form.ring, form.ring);
    const item = { destination: form.destination, amount: 0n, scid: form.scid, burn: 0n, payloadRpc: [] };
    const request: TransferRequest = { transfers: [item], ringSize: ring.size };
    const fee = requestFee(request);
    item.amount =
      form.amount.trim() === 'max' ? await this.maxAmount(form.scid, fee) : parseAmount(form.amount.trim(), 'amount');
    if (item.amount === 0n) throw new WalletError(WalletErrorCode.InsufficientBalance, 'the amount must be above 0');
    const preview: SendPreview = {
      address,
      asset: (await this.names.nameOf(form.scid)).name,
      atomic: item.amount.toString(),
      text: amountText(item.amount, form.scid),
      feeText: coinsText(fee),
      ring: ring.size,
    };
    return { preview, request };
  }

  /** All of the asset's balance; of the native coin, what is left once the fee is paid. */
  private async maxAmount(scid: string, fee: bigint): Promise<bigint> {
    const balance = await this.wallet.balance(scid);
    if (scid !== NATIVE_ASSET) return balance;
    if (balance <= fee)
      throw new WalletError(
        WalletErrorCode.InsufficientBalance,
        `the balance, ${coinsText(balance)}, does not pay the fee`,
      );
    return balance - fee;
  }

  /** Checks `request` as sending would, then sends it in the background as a job titled `title`. */
  async start(title: string, request: TransferRequest): Promise<Job> {
    await this.wallet.transfers.refuseWhilePending();
    if (!request.force) await this.wallet.transfers.tryContract(request);
    const job: Job = { id: randomUUID(), title, step: 'building' };
    this.jobs.set(job.id, job);
    for (const old of [...this.jobs.keys()].slice(0, -KEPT_JOBS)) this.jobs.delete(old);
    this.changed();
    this.run(job, request).then(this.changed, (error: unknown) => {
      job.step = 'failed';
      job.error = (error as Error).message;
      this.changed();
    });
    return job;
  }

  private async run(job: Job, request: TransferRequest): Promise<void> {
    job.txid = await this.wallet.transfers.send(request);
    job.step = 'sent';
    this.changed();
    const record = await minedRecord(this.wallet.sendDaemon, job.txid, { timeoutMs: 120_000, intervalMs: 100 });
    if (!record) throw new Error(`not in a block after 2 minutes; it was sent and may still be mined`);
    job.step = 'mined';
    job.height = record.block_height;
    if (record.sc_outcome) job.outcome = describeOutcome(record.sc_outcome);
  }
}
