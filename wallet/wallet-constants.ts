/** Values the wallet's parts share with the daemon's answers. */

/** The SCID of the native coin. */
export const NATIVE_ASSET = '0'.repeat(64);
/** The daemon's (and so the wallet's) answer for an account without a balance entry. */
export const ACCOUNT_UNREGISTERED = 'Account Unregistered';
/** The ring size of a transaction that names none: 16 hides the sender among 16 accounts. */
export const DEFAULT_RING = 16;
/** The ring size of a contract call that names none: a ring of 2 reveals the signer, whom contracts need to know. */
export const DEFAULT_CONTRACT_RING = 2;
