/**
 * ElGamal in the exponent (docs/cryptography.md § Encrypted balances), written over the Core interface so that it runs on either
 * implementation. A balance b under key Y is (L, R) = (b·G + ρ·Y, ρ·G); only the key holder recovers
 * b·G = L − sk·R (the discrete log b is found by the balance decoder). Points are 64-byte affine.
 */
import { bigintToBytes32BE } from './bigint-bytes.js';
import type { Core } from './core.js';
import type { FixedBase } from './curve.js';

export interface Ciphertext {
  readonly L: Uint8Array;
  readonly R: Uint8Array;
}

/** Two compressed points: L ‖ R. */
export const CIPHERTEXT_BYTES = 66;
const MAX_AMOUNT = (1n << 64n) - 1n;

function amountScalar(amount: bigint): Uint8Array {
  if (typeof amount !== 'bigint' || amount < 0n || amount > MAX_AMOUNT)
    throw new Error(`amount must be a uint64, got ${String(amount)}`);
  return bigintToBytes32BE(amount);
}

export class ElGamal {
  private readonly gBase: FixedBase;

  /** `G` is the value base of the network's generator set (`core.generators(domain).G`). */
  constructor(
    readonly core: Core,
    readonly G: Uint8Array,
  ) {
    this.gBase = core.g1FixedBase(G);
  }

  /** amount·G (a public credit, or the point a decrypted balance is compared with). */
  amountPoint(amount: bigint): Uint8Array {
    return this.gBase.mul(amountScalar(amount));
  }

  /**
   * (amount·G + r·Y, r·G) for a blinding scalar r (32 bytes; random in [1, n−1] for real use). The amount and r are
   * secret: constant-time multiplications.
   */
  encrypt(Y: Uint8Array, amount: bigint, r: Uint8Array): Ciphertext {
    const { core, G } = this;
    return {
      L: core.g1Add(core.g1MulSecret(G, amountScalar(amount)), core.g1MulSecret(Y, r)),
      R: core.g1MulSecret(G, r),
    };
  }

  /** The starting balance of a newly registered key: (Y, G), an encryption of 0 with ρ = 1. */
  registrationBalance(Y: Uint8Array): Ciphertext {
    return { L: Y.slice(), R: this.G.slice() };
  }

  /** Adds amount·G to L (coinbase, premine, contract payouts); R is unchanged. */
  credit(balance: Ciphertext, amount: bigint): Ciphertext {
    return { L: this.core.g1Add(balance.L, this.amountPoint(amount)), R: balance.R.slice() };
  }

  add(a: Ciphertext, b: Ciphertext): Ciphertext {
    return { L: this.core.g1Add(a.L, b.L), R: this.core.g1Add(a.R, b.R) };
  }

  subtract(a: Ciphertext, b: Ciphertext): Ciphertext {
    return { L: this.core.g1Sub(a.L, b.L), R: this.core.g1Sub(a.R, b.R) };
  }

  /** b·G = L − sk·R (sk is secret: constant-time multiplication). */
  decryptToPoint(balance: Ciphertext, sk: Uint8Array): Uint8Array {
    return this.core.g1Sub(balance.L, this.core.g1MulSecret(balance.R, sk));
  }

  /** compressed(L) ‖ compressed(R), 66 bytes (neither point may be infinity). */
  serialize(balance: Ciphertext): Uint8Array {
    const out = new Uint8Array(CIPHERTEXT_BYTES);
    out.set(this.core.g1Compress(balance.L), 0);
    out.set(this.core.g1Compress(balance.R), 33);
    return out;
  }

  /** The inverse of `serialize`, with strict point decoding. */
  deserialize(bytes: Uint8Array): Ciphertext {
    if (!(bytes instanceof Uint8Array) || bytes.length !== CIPHERTEXT_BYTES) {
      throw new Error(
        `an encrypted balance is ${CIPHERTEXT_BYTES} bytes, got ${bytes instanceof Uint8Array ? bytes.length : typeof bytes}`,
      );
    }
    const point = (name: string, at: number): Uint8Array => {
      try {
        return this.core.g1Decompress(bytes.subarray(at, at + 33));
      } catch (error) {
        throw new Error(`encrypted balance ${name}: ${(error as Error).message}`);
      }
    };
    return { L: point('L', 0), R: point('R', 33) };
  }
}
