/** ElGamal-in-the-exponent arithmetic on stored (compressed) balances, over the crypto core's ElGamal. */
import type { Core } from '../../core-native/ts/core.js';
import { ElGamal, type Ciphertext } from '../../core-native/ts/elgamal.js';
import type { NonceBalance } from '../../protocol/nonce-balance.js';
import type { BalanceMath } from './block-executor.js';

export function balanceMath(core: Core, domain: string): BalanceMath {
  const elgamal = new ElGamal(core, core.generators(domain).G);
  const stored = (nonceHeight: bigint, balance: Ciphertext): NonceBalance => ({
    nonceHeight,
    L: core.g1Compress(balance.L),
    R: core.g1Compress(balance.R),
  });
  return {
    registration: (key) => stored(0n, elgamal.registrationBalance(core.g1Decompress(key))),
    credit: (balance, amount) =>
      stored(
        balance.nonceHeight,
        elgamal.credit({ L: core.g1Decompress(balance.L), R: core.g1Decompress(balance.R) }, amount),
      ),
  };
}
