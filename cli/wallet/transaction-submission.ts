/**
 * What send, call and install share: refuse while an earlier transaction of the wallet is still in the pool (naming
 * it), choose the ring (the one asked for, refused when the chain cannot fill it; else the command's default, lowered
 * on a young chain to the largest ring it can fill) — all before anything is shown — then show what will be sent (on
 * stderr) with the fee the wallet will use and the ring size, ask to confirm, send through the wallet library, and —
 * unless told not to wait — wait for the block and read back the height and, for a contract transaction, its outcome.
 */
import type { ContractCallOutcome } from '../../protocol/contract-outcome.js';
import { ContractWouldFailError } from '../../wallet/contract-trial.js';
import { requestFee } from '../../wallet/fees.js';
import { RingTooLargeError, type RingChoice } from '../../wallet/ring.js';
import type { TransferRequest } from '../../wallet/transfer-sender.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import { describeAmount } from '../../protocol/coin-amount.js';
import { waitForBlock } from './block-wait.js';
import { confirmOrRefuse } from './confirmation.js';
import { describeOutcome } from '../../protocol/contract-outcome-text.js';
import { labelled } from './output.js';
import type { WalletSession } from './session.js';

export interface SubmitOptions {
  /** The ring size asked for (--ring); absent: the command's default. */
  ring?: number;
  /** Send without asking. */
  yes?: boolean;
  /** Wait for the transaction's block (the default). */
  wait: boolean;
}

export interface SentTransaction {
  txid: string;
  /** The fee paid, atomic units. */
  fee: bigint;
  ring_size: number;
  /** Whether the command waited for a block (then block_height is set). */
  mined: boolean;
  block_height?: number;
  /** A mined contract transaction's outcome; null when the daemon does not report it. */
  sc_outcome?: ContractCallOutcome | null;
}

/**
 * Confirms and sends `unringed` with the ring `options` asks for or `defaultRing`; `preview` names what it does
 * (destination, amount, …) before the fee and ring.
 */
export async function submitTransaction(
  session: WalletSession,
  unringed: Omit<TransferRequest, 'ringSize'>,
  defaultRing: number,
  preview: [string, string][],
  options: SubmitOptions,
): Promise<SentTransaction> {
  const { wallet } = session;
  // Checked, chosen and tried before the question, so that nobody is asked to confirm what would be refused.
  await wallet.transfers.refuseWhilePending();
  const ring = await choosingRing(wallet, options.ring, defaultRing);
  const request: TransferRequest = { ...unringed, ringSize: ring.size };
  if (!request.force) await tryingContract(wallet, request);
  const expectedFee = requestFee(request);
  session.note(labelled([...preview, ['fee', describeAmount(expectedFee)], ['ring size', ringText(ring)]]).trimEnd());
  await confirmOrRefuse('Send this transaction?', options.yes, 'send the transaction');
  const txid = await wallet.transfers.send(request);
  const recorded = wallet.history
    .assets()
    .flatMap(([, entries]) => entries)
    .find((entry) => entry.txid === txid);
  const sent: SentTransaction = {
    txid,
    fee: recorded ? recorded.fees : expectedFee,
    ring_size: request.ringSize,
    mined: false,
  };
  if (!options.wait) return sent;
  session.note(`sent ${txid}; waiting for a block`);
  const record = await waitForBlock(wallet.sendDaemon, txid);
  return {
    ...sent,
    mined: true,
    block_height: record.block_height,
    ...(request.scRpc ? { sc_outcome: record.sc_outcome ?? null } : {}),
  };
}

/** The wallet's choice of ring, a ring too large for the chain refused in the command line's words. */
async function choosingRing(wallet: WalletService, asked: number | undefined, fallback: number): Promise<RingChoice> {
  try {
    return await wallet.transfers.chooseRing(asked, fallback);
  } catch (error) {
    if (error instanceof RingTooLargeError) throw new RingTooLargeError(error.ringSize, error.accounts, '--ring');
    throw error;
  }
}

/** The ring size, and why it is below the default when the chain is too young for it. */
const ringText = ({ size, lowered }: RingChoice): string =>
  lowered
    ? `${size} (the largest this chain allows: it has ${lowered.accounts} registered accounts, the default ring ${lowered.from} needs ${lowered.from})`
    : String(size);

/** The wallet's trial run of a contract request, its refusal worded for the command line. */
async function tryingContract(wallet: WalletService, request: TransferRequest): Promise<void> {
  try {
    await wallet.transfers.tryContract(request);
  } catch (error) {
    if (error instanceof ContractWouldFailError)
      throw new ContractWouldFailError(error.failure, error.install, 'add --force');
    throw error;
  }
}

/** The lines of a sent transaction, after the command's own. */
export function sentRows(sent: SentTransaction): [string, string][] {
  const rows: [string, string][] = [
    ['txid', sent.txid],
    ['fee', describeAmount(sent.fee)],
  ];
  rows.push(['block', sent.mined ? String(sent.block_height) : 'not waited for (--no-wait)']);
  if (sent.sc_outcome !== undefined)
    rows.push([
      'outcome',
      sent.sc_outcome
        ? describeOutcome(sent.sc_outcome)
        : 'not reported by the daemon (it records no contract outcomes)',
    ]);
  return rows;
}
