/**
 * Why a transaction is refused — by the pool, or inside a block — whichever rule it breaks: its encoding, a
 * registration's signature and proof of work, a transfer's shape, points, ring and proofs, its reference block, a
 * contract call's arguments. A block that carries such a transaction is rejected with the TransactionError as cause.
 */
import { UmbraError } from '../core-native/ts/errors.js';

export const TransactionErrorCode = {
  // Encoding and identity
  TooLarge: 'tx.too-large',
  Malformed: 'tx.malformed',
  WrongId: 'tx.wrong-id',
  /** A COINBASE or PREMINE transaction anywhere but as a block's miner transaction. */
  MinerOnly: 'tx.miner-only',
  NotACurvePoint: 'tx.not-a-curve-point',
  // Registrations
  RegistrationPow: 'tx.registration-pow',
  BadSignature: 'tx.bad-signature',
  AlreadyRegistered: 'tx.already-registered',
  // Transfers on their own
  NotATransfer: 'tx.not-a-transfer',
  NoNativePayload: 'tx.no-native-payload',
  MixedStateRoots: 'tx.mixed-state-roots',
  FeeOnAsset: 'tx.fee-on-asset',
  DuplicateRingMember: 'tx.duplicate-ring-member',
  UnregisteredRingMember: 'tx.unregistered-ring-member',
  InvalidProof: 'tx.invalid-proof',
  // Transfers against the chain they are executed on
  ReferenceTooNew: 'tx.reference-too-new',
  Expired: 'tx.expired',
  UnknownReferenceBlock: 'tx.unknown-reference-block',
  WrongStateRoot: 'tx.wrong-state-root',
  DoubleSpend: 'tx.double-spend',
  StaleRing: 'tx.stale-ring',
  // Contract transactions
  NoContractVm: 'tx.no-contract-vm',
  BadContractArguments: 'tx.bad-contract-arguments',
  ContractExists: 'tx.contract-exists',
  NoInitializer: 'tx.no-initializer',
  UnknownContract: 'tx.unknown-contract',
  UnknownFunction: 'tx.unknown-function',
  NotExported: 'tx.not-exported',
  ContractDoesNotCompile: 'tx.contract-does-not-compile',
  // A block's list of transactions
  ListedTwice: 'tx.listed-twice',
  Unavailable: 'tx.unavailable',
  OverBlockSize: 'tx.over-block-size',
  /** The chain was opened without transaction rules, so it cannot judge one. */
  NotExecuted: 'tx.not-executed',
  // The pool
  AlreadyPending: 'tx.already-pending',
  AlreadyInBlock: 'tx.already-in-block',
  FeeTooLow: 'tx.fee-too-low',
  /** The pool holds a registration of the same key. */
  RegistrationPending: 'tx.registration-pending',
  /** A payload spends with the proof nonce of a pending transaction (the same balance spent twice). */
  NonceReused: 'tx.nonce-reused',
} as const;
export type TransactionErrorCode = (typeof TransactionErrorCode)[keyof typeof TransactionErrorCode];

export class TransactionError extends UmbraError<TransactionErrorCode> {
  override readonly name = 'TransactionError';
}
