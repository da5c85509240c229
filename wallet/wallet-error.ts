/** Errors of wallet operations as the user sees them. */
import { UmbraError } from '../core-native/ts/errors.js';
import { DaemonRpcError, DaemonUnavailableError } from './daemon-client.js';

export enum WalletErrorCode {
  /** The wallet's account has no balance entry on chain yet (its registration is not mined). */
  AccountUnregistered = 'wallet.account-unregistered',
  /** The daemon cannot be reached. */
  DaemonOffline = 'wallet.daemon-offline',
  /** The daemon answered a request with an error (a rejected transaction included). */
  DaemonRefused = 'wallet.daemon-refused',
  /** The daemon refused the account's registration transaction. */
  RegistrationRefused = 'wallet.registration-refused',
  /** The registration was not mined in time (it stays in the pool). */
  RegistrationTimeout = 'wallet.registration-timeout',
  /** The wallet closed while the registration's proof of work was running. */
  RegistrationCancelled = 'wallet.registration-cancelled',
  /** The proof-of-work worker failed (its message says why). */
  RegistrationPowFailed = 'wallet.registration-pow-failed',
  /** A destination is neither an address nor a registered name. */
  UnknownDestination = 'wallet.unknown-destination',
  /** A destination is an address of another network. */
  WrongNetwork = 'wallet.wrong-network',
  /** A destination has no account on chain. */
  DestinationUnregistered = 'wallet.destination-unregistered',
  SendToSelf = 'wallet.send-to-self',
  /** A payload's arguments do not fit in a payload. */
  PayloadTooLarge = 'wallet.payload-too-large',
  /** The chain has fewer registered accounts than the ring's size (found before anything is built). */
  RingTooLarge = 'wallet.ring-too-large',
  /** The daemon offers fewer accounts than the ring needs. */
  NotEnoughDecoys = 'wallet.not-enough-decoys',
  /** The previous transaction is still in the pool. */
  PreviousTransactionPending = 'wallet.previous-transaction-pending',
  InsufficientBalance = 'wallet.insufficient-balance',
  /** A trial run of the contract install or call on the daemon's latest state says it would fail (nothing sent). */
  ContractCallWouldFail = 'wallet.contract-call-would-fail',
  /** No history entry of the wallet has the transaction id asked for. */
  TransactionNotFound = 'wallet.transaction-not-found',
  /** The daemon sent an encrypted balance that is not one. */
  MalformedBalance = 'wallet.malformed-balance',
  /** An encrypted balance holds more than the decoder can find. */
  UndecodableBalance = 'wallet.undecodable-balance',
  /** A daemon served a header that fails a check, or an answer that is not the headers asked for. */
  HeaderRefused = 'wallet.header-refused',
  /** A daemon's chain ends below the top the wallet has verified (or below its checkpoint). */
  DaemonBehind = 'wallet.daemon-behind',
  /** A daemon's chain forks from the verified one and does not carry more work. */
  LessWork = 'wallet.less-work',
  /** A daemon's chain does not hold the block the wallet's header chain starts from (genesis or a checkpoint). */
  NotOnTrustedChain = 'wallet.not-on-trusted-chain',
  /** A checkpoint is not HEIGHT:HASH, or the header file cannot hold it. */
  BadCheckpoint = 'wallet.bad-checkpoint',
  /** The header file beside the wallet file cannot be read, is damaged, or belongs to another network. */
  HeaderFileDamaged = 'wallet.header-file-damaged',
  /** A daemon's answer to a proven read does not prove what was asked against a state root the wallet verified. */
  ProofRefused = 'wallet.proof-refused',
  /** A proven read at a topoheight whose header the wallet has not verified (sync the header chain first). */
  StateNotVerified = 'wallet.state-not-verified',
  /** A daemon to send through was named for a wallet that sends through its sync daemon (started without one). */
  NoSendDaemon = 'wallet.no-send-daemon',
}

/** A wallet operation that cannot be done; the message is what the user sees (RPC: -32098 with this message and code). */
export class WalletError extends UmbraError<WalletErrorCode> {
  override readonly name = 'WalletError';
}

/** The daemon's refusal as a WalletError; the daemon's own error code, when it gave one, stays in `details.daemon_code`. */
export function daemonRefusal(code: WalletErrorCode, message: string, refusal: DaemonRpcError): WalletError {
  const daemonCode = refusal.data.code;
  return new WalletError(code, message, {
    cause: refusal,
    ...(daemonCode === undefined ? {} : { details: { daemon_code: daemonCode } }),
  });
}

/** A daemon failure as a WalletError (`Daemon is offline …`, or the daemon's refusal); other errors unchanged. */
export function daemonFailure(error: unknown): unknown {
  if (error instanceof DaemonUnavailableError)
    return new WalletError(WalletErrorCode.DaemonOffline, `Daemon is offline (${error.message})`);
  if (error instanceof DaemonRpcError)
    return daemonRefusal(WalletErrorCode.DaemonRefused, `the daemon refused the request: ${error.message}`, error);
  return error;
}

/** The failures that say a daemon's answer cannot be trusted (a header or a proof that did not check). */
const TRUST_FAILURES: ReadonlySet<string> = new Set([
  WalletErrorCode.HeaderRefused,
  WalletErrorCode.DaemonBehind,
  WalletErrorCode.LessWork,
  WalletErrorCode.NotOnTrustedChain,
  WalletErrorCode.ProofRefused,
  WalletErrorCode.StateNotVerified,
]);

/** Whether `error` refuses a daemon's answer as untrustworthy: never to be passed over as a passing failure. */
export const isTrustFailure = (error: unknown): boolean =>
  error instanceof WalletError && TRUST_FAILURES.has(error.code);
