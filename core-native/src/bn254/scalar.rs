//! Scalars: 256-bit big-endian values used modulo the group order n, and their digit expansions.

use super::fp::{less_than, limbs_from_be, sub_limbs};

pub const N: [u64; 4] = [0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d, 0x30644e72e131a029];

/// 32 big-endian bytes reduced mod n (any 256-bit value is accepted), as little-endian limbs.
pub fn scalar_from_be(bytes: &[u8]) -> [u64; 4] {
    let mut k = limbs_from_be(bytes);
    // 2^256 < 6n: at most five subtractions.
    while !less_than(&k, &N) {
        k = sub_limbs(&k, &N).0;
    }
    k
}

/// Reduction mod n without branches on the value (for secret scalars): five masked subtractions. `black_box` hides
/// the mask from the optimiser, which otherwise sees that k stays put once below n and leaves the loop early.
pub fn scalar_from_be_ct(bytes: &[u8]) -> [u64; 4] {
    let mut k = limbs_from_be(bytes);
    for _ in 0..5 {
        let (r, borrow) = sub_limbs(&k, &N);
        let keep = std::hint::black_box(0u64.wrapping_sub(borrow));
        for i in 0..4 {
            k[i] = (k[i] & keep) | (r[i] & !keep);
        }
    }
    k
}

/// The 4-bit window `index` (0 = least significant).
#[inline(always)]
pub fn nibble(k: &[u64; 4], index: usize) -> usize {
    ((k[index / 16] >> ((index % 16) * 4)) & 0xf) as usize
}

/// `width` bits of k starting at bit `start` (width ≤ 32).
#[inline(always)]
pub fn bits(k: &[u64; 4], start: usize, width: usize) -> usize {
    let limb = start / 64;
    let shift = start % 64;
    if limb >= 4 {
        return 0;
    }
    let mut v = k[limb] >> shift;
    if shift + width > 64 && limb + 1 < 4 {
        v |= k[limb + 1] << (64 - shift);
    }
    (v & ((1u64 << width) - 1)) as usize
}

/// Width-w NAF digits, least significant first: every non-zero digit is odd with |d| < 2^(w−1).
pub fn wnaf(k: &[u64; 4], w: u32) -> Vec<i32> {
    let mut k = *k;
    let mut digits = Vec::with_capacity(258);
    let window = 1i64 << w;
    while k.iter().any(|&l| l != 0) {
        let mut d = 0i64;
        if k[0] & 1 == 1 {
            d = (k[0] & (window as u64 - 1)) as i64;
            if d >= window / 2 {
                d -= window;
            }
            // k −= d (k stays non-negative: k ≥ d when d > 0, and k grows by |d| when d < 0)
            if d > 0 {
                k = sub_limbs(&k, &[d as u64, 0, 0, 0]).0;
            } else {
                let mut carry = (-d) as u64;
                for limb in k.iter_mut() {
                    let (s, c) = limb.overflowing_add(carry);
                    *limb = s;
                    carry = c as u64;
                }
            }
        }
        digits.push(d as i32);
        k = [k[0] >> 1 | k[1] << 63, k[1] >> 1 | k[2] << 63, k[2] >> 1 | k[3] << 63, k[3] >> 1];
    }
    digits
}
