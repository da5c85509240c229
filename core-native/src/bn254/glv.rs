//! The GLV endomorphism of BN254 G1: φ(x, y) = (β·x, y) = λ·(x, y), with β a cube root of unity mod p and λ one
//! mod n. A scalar k splits into k ≡ k1 + k2·λ (mod n) with |k1|, |k2| < 2^128, which halves the doublings of a
//! variable-base multiplication. Constants derived from a short basis of the lattice {(a, b) : a + b·λ ≡ 0 mod n}
//! by the extended Euclidean algorithm on (n, λ) (Gallant–Lambert–Vanstone 2001).

use super::fp::Fp;

/// β in Montgomery form: β = 0x59e26bcea0d48bacd4f263f1acdb5c4f5763473177fffffe.
pub const BETA: Fp = Fp([0x71930c11d782e155, 0xa6bb947cffbe3323, 0xaa303344d4741444, 0x2c3b3f0d26594943]);

/// Basis vectors (a1, b1) = (A1, −B1_ABS) and (a2, b2) = (A2, A1).
const A1: u128 = 9931322734385697763;
const B1_ABS: u128 = 147946756881789319000765030803803410728;
const A2: u128 = 147946756881789319010696353538189108491;
/// round(2^256 · b2 / n) and round(2^256 · (−b1) / n).
const G1: [u64; 2] = [0xd91d232ec7e0b3d7, 0x2];
const G2: [u64; 3] = [0x7a7bd9d4391eb18e, 0x4ccef014a773d2cf, 0x2];

fn mul_limbs<const A: usize, const B: usize>(a: &[u64; A], b: &[u64; B]) -> [u64; 8] {
    let mut out = [0u64; 8];
    for i in 0..A {
        let mut carry = 0u128;
        for j in 0..B {
            if i + j >= 8 {
                break;
            }
            let t = out[i + j] as u128 + (a[i] as u128) * (b[j] as u128) + carry;
            out[i + j] = t as u64;
            carry = t >> 64;
        }
        if i + B < 8 {
            out[i + B] = carry as u64;
        }
    }
    out
}

fn u128_limbs(v: u128) -> [u64; 2] {
    [v as u64, (v >> 64) as u64]
}

/// a·b mod 2^256 for a, b < 2^128.
fn mul128(a: u128, b: u128) -> [u64; 4] {
    let w = mul_limbs(&u128_limbs(a), &u128_limbs(b));
    [w[0], w[1], w[2], w[3]]
}

fn wrapping_sub(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
    super::fp::sub_limbs(&a, &b).0
}

/// A two's-complement 256-bit value known to be small, as (negative, |value|). Branch-free (the constant-time
/// multiplication splits secret scalars): the negation is a masked two's complement.
fn signed(v: [u64; 4]) -> (bool, u128) {
    let negative = v[3] >> 63;
    let mask = std::hint::black_box(0u64.wrapping_sub(negative));
    let flipped = [v[0] ^ mask, v[1] ^ mask, v[2] ^ mask, v[3] ^ mask];
    let m = wrapping_sub(flipped, [mask, mask, mask, mask]);
    (negative == 1, m[0] as u128 | (m[1] as u128) << 64)
}

/// k (< n) ↦ ((neg1, |k1|), (neg2, |k2|)) with k ≡ k1 + k2·λ (mod n).
pub fn split(k: &[u64; 4]) -> ((bool, u128), (bool, u128)) {
    let c1w = mul_limbs(k, &G1);
    let c2w = mul_limbs(k, &G2);
    let c1 = c1w[4] as u128 | (c1w[5] as u128) << 64;
    let c2 = c2w[4] as u128 | (c2w[5] as u128) << 64;
    // k1 = k − c1·a1 − c2·a2 ; k2 = −c1·b1 − c2·b2 = c1·|b1| − c2·a1
    let k1 = wrapping_sub(wrapping_sub(*k, mul128(c1, A1)), mul128(c2, A2));
    let k2 = wrapping_sub(mul128(c1, B1_ABS), mul128(c2, A1));
    (signed(k1), signed(k2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bn254::hash_to_point::hash_to_point;

    #[test]
    fn beta_is_the_endomorphism_for_lambda() {
        // λ = 0xb3c4d79d41a917585bfc41088d8daaa78b17ea66b99c90dd
        let lambda = [0x8b17ea66b99c90dd, 0x5bfc41088d8daaa7, 0xb3c4d79d41a91758, 0];
        let p = hash_to_point(b"glv");
        let lp = crate::bn254::tests::double_and_add(&p, &lambda).to_affine();
        assert_eq!(lp.x, p.x.mul(&BETA));
        assert_eq!(lp.y, p.y);
    }

    #[test]
    fn split_recombines() {
        // k1 + k2·λ ≡ k (mod n), checked on the curve: k1·P + k2·φ(P) = k·P (with plain double-and-add).
        let p = hash_to_point(b"split");
        let phi = crate::bn254::point::Affine { x: p.x.mul(&BETA), y: p.y, infinity: false };
        let mut seed = 99u64;
        for _ in 0..20 {
            let mut bytes = [0u8; 32];
            for b in bytes.iter_mut() {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *b = (seed >> 56) as u8;
            }
            let k = crate::bn254::scalar::scalar_from_be(&bytes);
            let ((n1, k1), (n2, k2)) = split(&k);
            let part = |base: &crate::bn254::point::Affine, neg: bool, v: u128| {
                let b = if neg { base.neg() } else { *base };
                crate::bn254::tests::double_and_add(&b, &[v as u64, (v >> 64) as u64, 0, 0])
            };
            let sum = part(&p, n1, k1).add(&part(&phi, n2, k2));
            assert_eq!(sum.to_affine(), crate::bn254::tests::double_and_add(&p, &k).to_affine());
        }
    }
}
