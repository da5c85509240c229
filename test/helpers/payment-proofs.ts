/** Payment proofs of built transfers, made as the sending wallet makes them (wallet/transfer-sender.ts). */
import type { Core } from '../../core-native/ts/core.js';
import { bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { sharedSecret } from '../../core-native/ts/shared-secret.js';
import { encodePaymentProof } from '../../protocol/address.js';
import type { TransferTx } from '../../protocol/transaction.js';

/** The proof that ring member `receiverIndex` of payload `p` received `amount` (a lie when it is not what was sent). */
export function paymentProofOf(
  core: Core,
  built: { tx: TransferTx; blindings: readonly bigint[] },
  p: number,
  receiverIndex: number,
  amount: bigint,
): string {
  const receiver = core.g1Decompress(built.tx.payloads[p]!.statement.ring[receiverIndex]!);
  const r = bigintToBytes32BE(built.blindings[p]!);
  return encodePaymentProof(core.g1Compress(core.g1MulSecret(receiver, r)), sharedSecret(core, r, receiver), amount);
}
