//! Scalar multiplication: variable-time wNAF (public data), constant-time fixed windows (secrets),
//! fixed-base with a precomputed table, and Pippenger's bucket method for multi-scalar multiplication.

use super::fp::Fp;
use super::glv::{split, BETA};
use super::point::{batch_normalize, Affine, Jacobian};
use super::scalar::{bits, nibble, wnaf};

const WNAF_WIDTH: u32 = 5;

/// P, 3P, …, 15P.
fn odd_multiples(p: &Affine) -> [Jacobian; 1 << (WNAF_WIDTH - 2)] {
    let base = p.to_jacobian();
    let twice = base.double();
    let mut odd = [base; 1 << (WNAF_WIDTH - 2)];
    for i in 1..odd.len() {
        odd[i] = odd[i - 1].add(&twice);
    }
    odd
}

#[inline(always)]
fn add_digit(acc: &Jacobian, table: &[Jacobian], d: i32) -> Jacobian {
    if d > 0 {
        acc.add(&table[(d as usize) >> 1])
    } else if d < 0 {
        acc.add(&table[((-d) as usize) >> 1].neg())
    } else {
        *acc
    }
}

/// k·P in variable time (k already reduced mod n): GLV split into two 128-bit halves, interleaved wNAF.
pub fn mul_var(p: &Affine, k: &[u64; 4]) -> Jacobian {
    if p.infinity {
        return Jacobian::INFINITY;
    }
    let ((neg1, k1), (neg2, k2)) = split(k);
    let table1 = odd_multiples(&if neg1 { p.neg() } else { *p });
    // φ(X, Y, Z) = (β·X, Y, Z) maps the table of ±P to the table of ±φ(P).
    let table2 = table1.map(|q| Jacobian { x: q.x.mul(&BETA), y: if neg1 == neg2 { q.y } else { q.y.neg() }, z: q.z });
    let digits1 = wnaf(&[k1 as u64, (k1 >> 64) as u64, 0, 0], WNAF_WIDTH);
    let digits2 = wnaf(&[k2 as u64, (k2 >> 64) as u64, 0, 0], WNAF_WIDTH);
    let mut acc = Jacobian::INFINITY;
    for i in (0..digits1.len().max(digits2.len())).rev() {
        acc = acc.double();
        acc = add_digit(&acc, &table1, digits1.get(i).copied().unwrap_or(0));
        acc = add_digit(&acc, &table2, digits2.get(i).copied().unwrap_or(0));
    }
    acc
}

/// k·P with no branch or memory access depending on k: 64 fixed 4-bit windows, each reading the whole table.
/// The table entry added is never equal to the accumulator (k < n), so the branch-free addition is exact.
pub fn mul_secret(p: &Affine, k: &[u64; 4]) -> Jacobian {
    let mut table = [Jacobian::INFINITY; 16];
    let base = p.to_jacobian();
    for i in 1..16 {
        table[i] = if i == 2 { base.double() } else { table[i - 1].add_no_branch(&base) };
    }
    let mut acc = Jacobian::INFINITY;
    for window in (0..64).rev() {
        for _ in 0..4 {
            acc = acc.double();
        }
        let digit = nibble(k, window) as u64;
        let mut chosen = Jacobian::INFINITY;
        for (i, entry) in table.iter().enumerate() {
            let diff = (i as u64) ^ digit;
            let mask = ((diff | diff.wrapping_neg()) >> 63).wrapping_sub(1);
            chosen = Jacobian { x: Fp::select(mask, &entry.x, &chosen.x), y: Fp::select(mask, &entry.y, &chosen.y), z: Fp::select(mask, &entry.z, &chosen.z) };
        }
        acc = acc.add_no_branch(&chosen);
    }
    acc
}

/// Fixed-base table: for each of the 64 nibbles i, the multiples d·16^i·P for d = 1..15, affine.
pub const FIXED_WINDOWS: usize = 64;
pub const FIXED_PER_WINDOW: usize = 15;

pub fn fixed_base_table(p: &Affine) -> Vec<Affine> {
    let mut points = Vec::with_capacity(FIXED_WINDOWS * FIXED_PER_WINDOW);
    let mut window_base = p.to_jacobian();
    for _ in 0..FIXED_WINDOWS {
        let mut multiple = window_base;
        for _ in 0..FIXED_PER_WINDOW {
            points.push(multiple);
            multiple = multiple.add(&window_base);
        }
        window_base = multiple; // 16·window_base
    }
    batch_normalize(&points)
}

/// k·P from a fixed-base table, given as a lookup of entry `window · 15 + digit − 1`.
pub fn mul_fixed(entry: impl Fn(usize) -> Affine, k: &[u64; 4]) -> Jacobian {
    let mut acc = Jacobian::INFINITY;
    for window in 0..FIXED_WINDOWS {
        let digit = nibble(k, window);
        if digit != 0 {
            acc = acc.add_affine(&entry(window * FIXED_PER_WINDOW + digit - 1));
        }
    }
    acc
}

/// Σ kᵢ·Pᵢ by Pippenger's bucket method with signed digits (variable time). Large inputs split their windows
/// over two threads.
pub fn msm(points: &[Affine], scalars: &[[u64; 4]]) -> Jacobian {
    let n = points.len();
    if n == 0 {
        return Jacobian::INFINITY;
    }
    let c = ((usize::BITS - n.leading_zeros()) as usize * 7 / 10 + 1).clamp(2, 16);
    // Signed digits in [−2^(c−1), 2^(c−1)); one extra window absorbs the last carry.
    let windows = 254 / c + 2;
    let digits: Vec<i32> = scalars.iter().flat_map(|k| signed_digits(k, c, windows)).collect();
    let window_sum = |w: usize| -> Jacobian {
        let mut buckets = vec![Jacobian::INFINITY; 1 << (c - 1)];
        for (i, p) in points.iter().enumerate() {
            let d = digits[i * windows + w];
            if d > 0 {
                buckets[d as usize - 1] = buckets[d as usize - 1].add_affine(p);
            } else if d < 0 {
                buckets[(-d) as usize - 1] = buckets[(-d) as usize - 1].add_affine(&p.neg());
            }
        }
        // Σ d·bucket[d] as a running sum from the top bucket down.
        let mut running = Jacobian::INFINITY;
        let mut sum = Jacobian::INFINITY;
        for bucket in buckets.iter().rev() {
            running = running.add(bucket);
            sum = sum.add(&running);
        }
        sum
    };
    // Horner over windows [from, to): Σ 2^(c·(w − from)) · window_sum(w).
    let horner = |from: usize, to: usize| -> Jacobian {
        let mut total = Jacobian::INFINITY;
        for w in (from..to).rev() {
            for _ in 0..c {
                total = total.double();
            }
            total = total.add(&window_sum(w));
        }
        total
    };
    if n < 256 {
        return horner(0, windows);
    }
    let split = windows / 2;
    let (low, mut high) = std::thread::scope(|scope| {
        let high = scope.spawn(|| horner(split, windows));
        let low = horner(0, split);
        (low, high.join().expect("msm worker thread panicked"))
    });
    for _ in 0..c * split {
        high = high.double();
    }
    high.add(&low)
}

/// k (< n) as `windows` signed base-2^c digits, least significant first.
fn signed_digits(k: &[u64; 4], c: usize, windows: usize) -> Vec<i32> {
    let half = 1i64 << (c - 1);
    let mut carry = 0i64;
    (0..windows)
        .map(|w| {
            let mut d = bits(k, w * c, c) as i64 + carry;
            carry = 0;
            if d >= half {
                d -= 1 << c;
                carry = 1;
            }
            d as i32
        })
        .collect()
}
