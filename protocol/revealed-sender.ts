/**
 * The sender a transaction shows anyone: with a native ring of 2, the proof reveals the parity of the sender's ring
 * index (core-native/ts/proof/parity.ts), so which of the two members signed is public — the SIGNER() a contract call
 * sees. Larger rings reveal nothing.
 */
import type { Core } from '../core-native/ts/core.js';
import { senderParityOf } from '../core-native/ts/proof/parity.js';
import { equalBytes } from './bytes.js';
import { NATIVE_SCID } from './transfer-checks.js';
import { TxType, type Transaction } from './transaction.js';

/** The key (33 bytes) of the sender a native ring of 2 reveals, or undefined. */
export function revealedSender(core: Core, txid: Uint8Array, tx: Transaction): Uint8Array | undefined {
  if (tx.type !== TxType.Normal && tx.type !== TxType.SmartContract) return undefined;
  const native = tx.payloads.find((payload) => equalBytes(payload.scid, NATIVE_SCID));
  if (native?.statement.ring.length !== 2) return undefined;
  const parity = senderParityOf(core, txid, native.proof, native.statement.ringLog2);
  return parity === undefined ? undefined : native.statement.ring[parity];
}
