/**
 * Registrations (docs/protocol.md § Transactions, "Registration"): a REGISTRATION transaction carries the new key and a Schnorr signature
 * (no message) proving its owner knows the secret, and its txid must start with a network-set number of zero bits —
 * a small proof of work against spam, ground by re-signing with successive nonces (16 bits on testnet: about 65 000
 * signatures; 24 on mainnet; none on the simulator). Registrations pay no fee.
 */
import type { Core } from '../../core-native/ts/core.js';
import { bigintFromBytesBE, bigintToBytes32BE } from '../../core-native/ts/bigint-bytes.js';
import { modN, randomScalar } from '../../core-native/ts/scalar.js';
import { schnorrChallenge, schnorrVerify } from '../../core-native/ts/schnorr.js';
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

/** Nonce commitments computed per g1Progression call while grinding (64 KiB of points). */
const GRIND_BATCH = 1024;

/**
 * Builds the registration of the key of `secretKey`, grinding signatures until the txid has `powBits` zero bits.
 * Each attempt signs with the next nonce, k + 1, whose commitment is one point further, T + G: the attempts cost a
 * share of a batched point addition and two Keccak hashes instead of a scalar multiplication each (testnet's 16 bits
 * take about 65 000 attempts). Only the winning signature leaves this function, and its nonce is uniformly random.
 */
export function makeRegistration(core: Core, G: Uint8Array, secretKey: Uint8Array, powBits: number): RegistrationTx {
  const Y = core.g1MulSecret(G, secretKey);
  const sk = modN(bigintFromBytesBE(secretKey));
  const tx: RegistrationTx = {
    version: TX_VERSION,
    sourceNetwork: 0,
    destNetwork: 0,
    type: TxType.Registration,
    key: core.g1Compress(Y),
    c: new Uint8Array(32),
    s: new Uint8Array(32),
  };
  // The encoding ends with c ‖ s: each attempt rewrites those 64 bytes and hashes the whole.
  const encoded = encodeTransaction(tx);
  const cAt = encoded.length - 64;
  let k = randomScalar();
  let start = core.g1MulSecret(G, bigintToBytes32BE(k));
  for (;;) {
    const commitments = core.g1Progression(start, G, GRIND_BATCH);
    for (let i = 0; i < GRIND_BATCH; i++, k++) {
      const c = schnorrChallenge(core, Y, commitments.subarray(i * 64, (i + 1) * 64));
      encoded.set(bigintToBytes32BE(c), cAt);
      encoded.set(bigintToBytes32BE(modN(k + c * sk)), cAt + 32);
      if (leadingZeroBits(core.keccak256(encoded)) >= powBits)
        return { ...tx, c: encoded.slice(cAt, cAt + 32), s: encoded.slice(cAt + 32) };
    }
    start = core.g1Add(commitments.subarray((GRIND_BATCH - 1) * 64), G);
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
