/**
 * A payment proof checked against its transaction, for the history screen: the transaction is read from the wallet's
 * daemon and the check runs here (protocol/payment-proof-check.ts); it must hash to the txid, so the daemon cannot
 * make a proof fit. The answer says what the proof shows, or why it fits nothing.
 */
import type { Core } from '../../core-native/ts/core.js';
import { UmbraError } from '../../core-native/ts/errors.js';
import { fromHex } from '../../protocol/bytes.js';
import { checkPaymentProof } from '../../protocol/payment-proof-check.js';
import { decodeTransaction } from '../../protocol/transaction.js';
import type { WalletService } from '../../wallet/wallet-service.js';
import type { ProofCheck } from './api-types.js';
import { amountText } from './wallet-views.js';
import { WebWalletError, WebWalletErrorCode } from './web-wallet-error.js';

export async function checkProof(core: Core, wallet: WalletService, txid: string, proof: string): Promise<ProofCheck> {
  if (!/^[0-9a-f]{64}$/.test(txid))
    throw new WebWalletError(WebWalletErrorCode.BadRequest, 'a transaction id is 64 lowercase hex digits');
  const [record] = await wallet.sendDaemon.getTransactions([txid]);
  if (!record || record.as_hex === '') return { ok: false, message: `the daemon knows no transaction ${txid}` };
  try {
    const fit = checkPaymentProof(core, wallet.keys.network, {
      txid: fromHex(txid, 32),
      tx: decodeTransaction(fromHex(record.as_hex)),
      proof: proof.trim(),
    });
    const where = record.in_pool ? 'waiting in the pool' : `in block ${record.block_height}`;
    return {
      ok: true,
      message: `${fit.receiver} received ${amountText(fit.amount, fit.asset)} (ring member ${fit.ringIndex + 1} of ${fit.ringSize}); the transaction is ${where}`,
    };
  } catch (error) {
    if (error instanceof UmbraError) return { ok: false, message: error.message };
    throw error;
  }
}
