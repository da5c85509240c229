/** A request to the web wallet that cannot be carried out as sent: answered 400 with its message. */
import { UmbraError } from '../../core-native/ts/errors.js';

export enum WebWalletErrorCode {
  /** A field is missing or not what it must be. */
  BadRequest = 'web-wallet.bad-request',
  /** The contract's code cannot be read (no compiler, no such contract, or it does not compile). */
  UnreadableContract = 'web-wallet.unreadable-contract',
  /** A daemon the settings page named was refused by the wallet's checks (the old one stays in use). */
  DaemonRefused = 'web-wallet.daemon-refused',
  /** The password given to unlock does not open the wallet file (answered 401). */
  WrongPassword = 'web-wallet.wrong-password',
}

export class WebWalletError extends UmbraError<WebWalletErrorCode> {
  override readonly name = 'WebWalletError';
}

/** Whether `value` is a SCID as the page and web apps give one: 64 lowercase hex digits. */
export const isScid = (value: string): boolean => /^[0-9a-f]{64}$/.test(value);

/** A string field of a request body; `what` names it in the refusal. */
export function textField(body: Record<string, unknown>, name: string, what = name): string {
  const value = body[name];
  if (typeof value !== 'string') throw new WebWalletError(WebWalletErrorCode.BadRequest, `${what} is missing`);
  return value;
}
