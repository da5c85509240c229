/**
 * What the sample-contract tests (test/plugins/dvm/contracts/) build again and again: call arguments by type, the
 * store writes and transfers they expect, and the compute gas of the owner check the samples share.
 */
import type { CallOptions } from './dvm.js';

export type Arg = NonNullable<CallOptions['args']>[number];

/** A Uint64 argument. */
export const U = (name: string, value: number): Arg => ({ name, datatype: 'U', value });
/** A String argument. */
export const S = (name: string, value: string): Arg => ({ name, datatype: 'S', value });
/** A Hash argument (64 hex digits). */
export const H = (name: string, value: string): Arg => ({ name, datatype: 'H', value });

/** The store write of a raw public key (hex) under a string key, as SIGNER() and ADDRESS_RAW() store it. */
export const rawKeyWrite = (key: string, rawHex: string) => ({
  ktype: 'S',
  key,
  vtype: 'S',
  value: rawHex,
  encoding: 'hex',
});
/** The store write of a Uint64 under a string key. */
export const uintWrite = (key: string, value: number) => ({ ktype: 'S', key, vtype: 'U', value });
/** A transfer out of the contract. */
export const payment = (asset: string, address: string, amount: number) => ({ asset, address, amount });

/**
 * A caller's `10 IF isOwner() == 0 THEN GOTO 100` for a known signer: 5000 + 800, plus isOwner's own lines
 * 10 IF SIGNER() == "" (5000 + 5000 + 800) and 20 RETURN LOAD("owner") == SIGNER() (5000 + 5000 + 800 + 5000).
 */
export const OWNER_CHECK_GAS = 5800 + 10800 + 15800;
