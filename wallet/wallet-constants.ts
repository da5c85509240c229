/** Values the wallet's parts share with the daemon's answers. */

/** The SCID of the native coin. */
export const NATIVE_ASSET = '0'.repeat(64);
/** The daemon's (and so the wallet's) answer for an account without a balance entry. */
export const ACCOUNT_UNREGISTERED = 'Account Unregistered';
