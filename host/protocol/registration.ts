/**
 * Registrations (docs/protocol.md § Transactions, "Registration"): a REGISTRATION transaction carries the new key and a Schnorr signature
 * (no message) proving its owner knows the secret, and its txid must start with a network-set number of zero bits —
 * a small proof of work against spam, ground by re-signing with fresh nonces (16 bits on testnet: about 65 000
 * signatures; 24 on mainnet; none on the simulator). Registrations pay no fee.
 */
import type { Core } from '../../core-native/ts/core.js';
import { schnorrSign, schnorrVerify } from '../../core-native/ts/schnorr.js';
import { TransactionError, TransactionErrorCode } from './transaction-errors.js';
import { encodeTransaction, TX_VERSION, TxType, type RegistrationTx } from './transaction.js';

/** Number of leading zero bits of a hash. */
export function leadingZeroBits(hash: Uint8Array): number {
  let bits = 0;
  for (const byte of hash) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** The txid of a registration (it has no proofs, so the whole encoding). */
export const registrationId = (core: Core, tx: RegistrationTx): Uint8Array => core.keccak256(encodeTransaction(tx));

/** Builds the registration of the key of `secretKey`, grinding signatures until the txid has `powBits` zero bits. */
export function makeRegistration(core: Core, G: Uint8Array, secretKey: Uint8Array, powBits: number): RegistrationTx {
  const key = core.g1Compress(core.g1MulSecret(G, secretKey));
  for (;;) {
    const { c, s } = schnorrSign(core, G, secretKey);
    const tx: RegistrationTx = {
      version: TX_VERSION,
      sourceNetwork: 0,
      destNetwork: 0,
      type: TxType.Registration,
      key,
      c,
      s,
    };
    if (leadingZeroBits(registrationId(core, tx)) >= powBits) return tx;
  }
}

/** Checks the signature and the proof of work; throws a TransactionError naming what is wrong. */
export function checkRegistration(core: Core, G: Uint8Array, tx: RegistrationTx, powBits: number): void {
  let Y: Uint8Array;
  try {
    Y = core.g1Decompress(tx.key);
  } catch (error) {
    throw new TransactionError(
      TransactionErrorCode.NotACurvePoint,
      `registration key is not a curve point: ${(error as Error).message}`,
    );
  }
  const zeros = leadingZeroBits(registrationId(core, tx));
  if (zeros < powBits)
    throw new TransactionError(
      TransactionErrorCode.RegistrationPow,
      `registration proof of work too small: the txid starts with ${zeros} zero bits, this network needs ${powBits}`,
    );
  if (!schnorrVerify(core, G, Y, { c: tx.c, s: tx.s }))
    throw new TransactionError(TransactionErrorCode.BadSignature, 'registration signature does not verify');
}
