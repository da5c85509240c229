/**
 * Why a payment proof does not show a payment in a transaction, in words a receiver or an arbiter can act on: the
 * text is not a proof, its parts do not belong together, or the transaction holds no payment it fits.
 */
import { UmbraError } from '../core-native/ts/errors.js';

export enum PaymentProofErrorCode {
  /** The text is not a payment proof (prefix, characters, checksum, length, arguments). */
  Unreadable = 'payment-proof.unreadable',
  /** Its blinder is not a curve point, or its shared secret is not the one the blinder gives. */
  Altered = 'payment-proof.altered',
  /** The transaction checked against is not the one the txid names. */
  WrongTransaction = 'payment-proof.wrong-transaction',
  /** A registration, coinbase or premine: no transfer, so no payment to prove. */
  NotATransfer = 'payment-proof.not-a-transfer',
  /** The proof opens a ring member's payload, but that member received another amount. */
  WrongAmount = 'payment-proof.wrong-amount',
  /** A member's ciphertext fits the amount and blinder, but the shared secret does not open its payload. */
  Forged = 'payment-proof.forged',
  /** Nothing in the transaction fits: the proof belongs to another transaction. */
  OtherTransaction = 'payment-proof.other-transaction',
}

export class PaymentProofError extends UmbraError<PaymentProofErrorCode> {
  override readonly name = 'PaymentProofError';
}
