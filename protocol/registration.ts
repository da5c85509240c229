/**
 * Registrations (docs/protocol.md § Transactions, "Registration"): a REGISTRATION transaction carries the new key and a Schnorr signature
 * (no message) proving its owner knows the secret, and its txid must start with a network-set number of zero bits —
 * a small proof of work against spam, ground by re-signing with successive nonces (16 bits on testnet: about 65 000
 * signatures; 24 on mainnet; none on the simulator). Registrations pay no fee.
 */
import type { Core } from '../core-native/ts/core.js';
import { bigintToBytes32BE } from '../core-native/ts/bigint-bytes.js';
import { leadingZeroBits } from '../core-native/ts/registration-pow.js';
import { modN, randomScalar } from '../core-native/ts/scalar.js';
import { schnorrVerify } from '../core-native/ts/schnorr.js';
import { TransactionError, TransactionErrorCode } from './transaction-errors.js';
import { encodeTransaction, TX_VERSION, TxType, type RegistrationTx } from './transaction.js';

export { leadingZeroBits };

/** The txid of a registration (it has no proofs, so the whole encoding). */
export const registrationId = (core: Core, tx: RegistrationTx): Uint8Array => core.keccak256(encodeTransaction(tx));

/**
 * Nonces tried per registrationGrind call: a few tens of milliseconds natively, so a worker running the grind can
 * be stopped between calls.
 */
export const REGISTRATION_GRIND_CHUNK = 1 << 14;

/**
 * Builds the registration of the key of `secretKey`, grinding signatures until the txid has `powBits` zero bits.
 * The core tries nonces k, k + 1, … from a uniformly random k (core-native/ts/registration-pow.ts): each attempt's
 * commitment is one point further, T + G, so attempts cost a share of a batched point addition and the hashing
 * instead of a scalar multiplication (testnet's 16 bits take about 65 000 attempts). Only the winning signature
 * leaves the core.
 */
export function makeRegistration(core: Core, G: Uint8Array, secretKey: Uint8Array, powBits: number): RegistrationTx {
  const tx: RegistrationTx = {
    version: TX_VERSION,
    sourceNetwork: 0,
    destNetwork: 0,
    type: TxType.Registration,
    key: core.g1Compress(core.g1MulSecret(G, secretKey)),
    c: new Uint8Array(32),
    s: new Uint8Array(32),
  };
  // The encoding ends with c ‖ s: the grind rewrites those 64 bytes and hashes the whole.
  const template = encodeTransaction(tx);
  const signature = new Uint8Array(64);
  // A call prepares its whole chunk of commitments: no larger than the attempts expected (one, without work).
  const chunk = Math.min(REGISTRATION_GRIND_CHUNK, 2 ** powBits);
  let k = randomScalar();
  while (!core.registrationGrind(G, secretKey, bigintToBytes32BE(k), template, powBits, chunk, signature))
    k = modN(k + BigInt(chunk));
  return { ...tx, c: signature.slice(0, 32), s: signature.slice(32) };
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
