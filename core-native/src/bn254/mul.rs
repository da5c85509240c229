//! Scalar multiplication: variable-time wNAF (public data), constant-time fixed windows (secrets),
//! fixed-base with a precomputed table, and multi-scalar multiplication (Straus' method for small inputs, Pippenger's
//! bucket method for large ones).

use super::fp::{batch_invert, Fp};
use super::glv::{split, BETA};
use super::point::{batch_normalize, Affine, Jacobian};
use super::projective::Projective;
use super::scalar::{bits, nibble, wnaf};

/// Width of the signed digits of the variable-base methods: tables of the odd multiples P, 3P, …, 15P.
const WNAF_WIDTH: u32 = 5;
const ODD_MULTIPLES: usize = 1 << (WNAF_WIDTH - 2);

/// P, 3P, …, 15P (P finite) sharing one Z coordinate: entry i is (xᵢ, yᵢ) for the point (xᵢ/Z², yᵢ/Z³). Built with
/// Meloni's co-Z addition ("New point addition formulae for ECC applications", 2007): with 2P and the last entry on
/// the same Z, one addition (5M + 2S) yields the next entry and 2P again on the new common Z; the earlier entries are
/// then brought to the final Z. No inversion.
fn odd_multiples_co_z(p: &Affine) -> ([Affine; ODD_MULTIPLES], Fp) {
    let twice = p.to_jacobian().double();
    let (z2, z3) = (twice.z.square(), twice.z.square().mul(&twice.z));
    let mut entries = [Affine { x: p.x.mul(&z2), y: p.y.mul(&z3), infinity: false }; ODD_MULTIPLES];
    let mut factors = [Fp::ONE; ODD_MULTIPLES];
    let (mut dx, mut dy, mut z) = (twice.x, twice.y, twice.z);
    for i in 1..ODD_MULTIPLES {
        let prev = entries[i - 1];
        let h = dx.sub(&prev.x);
        let c = h.square();
        let (w1, w2) = (dx.mul(&c), prev.x.mul(&c));
        let r = dy.sub(&prev.y);
        let a1 = dy.mul(&w1.sub(&w2));
        let x3 = r.square().sub(&w1).sub(&w2);
        entries[i] = Affine { x: x3, y: r.mul(&w1.sub(&x3)).sub(&a1), infinity: false };
        (dx, dy, z, factors[i]) = (w1, a1, z.mul(&h), h);
    }
    // Entry i sits on Z·(hᵢ₊₁ ⋯ h₇)⁻¹: scale it by that product s (x·s², y·s³).
    let mut s = Fp::ONE;
    for i in (0..ODD_MULTIPLES).rev() {
        if i + 1 < ODD_MULTIPLES {
            s = s.mul(&factors[i + 1]);
            let s2 = s.square();
            entries[i] = Affine { x: entries[i].x.mul(&s2), y: entries[i].y.mul(&s2.mul(&s)), infinity: false };
        }
    }
    (entries, z)
}

#[inline(always)]
fn add_digit(acc: &Jacobian, table: &[Affine], d: i32) -> Jacobian {
    if d > 0 {
        acc.add_affine(&table[(d as usize) >> 1])
    } else if d < 0 {
        acc.add_affine(&table[((-d) as usize) >> 1].neg())
    } else {
        *acc
    }
}

/// k·P in variable time (k already reduced mod n): GLV split into two 128-bit halves, interleaved wNAF. The table
/// entries share one Z, so they act as affine points on the isomorphic curve y² = x³ + 3Z⁶ (the doubling and
/// mixed-addition formulas do not involve b): every addition is a mixed one, and the result's Z is multiplied by Z
/// at the end to come back to the real curve.
pub fn mul_var(p: &Affine, k: &[u64; 4]) -> Jacobian {
    if p.infinity {
        return Jacobian::INFINITY;
    }
    let ((neg1, k1), (neg2, k2)) = split(k);
    let (table1, z) = odd_multiples_co_z(&if neg1 { p.neg() } else { *p });
    // φ(x, y) = (β·x, y) maps the table of ±P to the table of ±φ(P), on the same Z.
    let table2 =
        table1.map(|q| Affine { x: q.x.mul(&BETA), y: if neg1 == neg2 { q.y } else { q.y.neg() }, infinity: false });
    let digits1 = wnaf(&[k1 as u64, (k1 >> 64) as u64, 0, 0], WNAF_WIDTH);
    let digits2 = wnaf(&[k2 as u64, (k2 >> 64) as u64, 0, 0], WNAF_WIDTH);
    let mut acc = Jacobian::INFINITY;
    for i in (0..digits1.len().max(digits2.len())).rev() {
        acc = acc.double();
        acc = add_digit(&acc, &table1, digits1.get(i).copied().unwrap_or(0));
        acc = add_digit(&acc, &table2, digits2.get(i).copied().unwrap_or(0));
    }
    Jacobian { z: acc.z.mul(&z), ..acc }
}

/// All ones when a = b, else 0, without a branch. `black_box` keeps the optimiser from turning the masked selects
/// that use it back into a branch or an indexed load.
#[inline(always)]
fn eq_mask(a: u64, b: u64) -> u64 {
    let diff = a ^ b;
    std::hint::black_box(((diff | diff.wrapping_neg()) >> 63).wrapping_sub(1))
}

/// Entry `digit` of a 16-entry table, read by scanning every entry with masked selects (no index depends on it),
/// negated when `negate` is all ones.
#[inline(always)]
fn select_entry(table: &[Projective; 16], digit: u64, negate: u64) -> Projective {
    let mut chosen = Projective::INFINITY;
    for (i, entry) in table.iter().enumerate() {
        chosen = Projective::select(eq_mask(i as u64, digit), entry, &chosen);
    }
    chosen.negate_if(negate)
}

/// k·P (k < n) with no branch or memory access depending on k, made affine in constant time. GLV splits k into
/// ±k1 + ±k2·λ with k1, k2 < 2^128 (branch-free); both halves are read as 32 fixed 4-bit windows from the top — all
/// of them, leading zeros included — sharing one chain of 4 doublings per window; each window adds the selected
/// entries of the tables 0·P … 15·P and of φ(P) = λ·P, their signs applied by masked negation. The complete
/// projective formulas make every addition exact (equal inputs and infinity included) without a special case.
/// P itself is public.
pub fn mul_secret(p: &Affine, k: &[u64; 4]) -> Affine {
    let ((neg1, k1), (neg2, k2)) = split(k);
    let (neg1, neg2) = (eq_mask(neg1 as u64, 1), eq_mask(neg2 as u64, 1));
    let base = Projective::from_affine(p);
    let mut table = [Projective::INFINITY; 16];
    for i in 1..16 {
        table[i] = table[i - 1].add(&base);
    }
    let phi = table.map(|q| Projective { x: q.x.mul(&BETA), ..q });
    let halves = [[k1 as u64, (k1 >> 64) as u64, 0, 0], [k2 as u64, (k2 >> 64) as u64, 0, 0]];
    let mut acc = Projective::INFINITY;
    for window in (0..32).rev() {
        for _ in 0..4 {
            acc = acc.double();
        }
        acc = acc.add(&select_entry(&table, nibble(&halves[0], window) as u64, neg1));
        acc = acc.add(&select_entry(&phi, nibble(&halves[1], window) as u64, neg2));
    }
    acc.to_affine_secret()
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

/// Below this many points the MSM runs Straus' method on one thread; up to `PIPPENGER_MIN` it splits the points
/// over two threads; from there on Pippenger's bucket method, its windows split over two threads. CPU time per
/// point measured on the 2-core development machine (before co-Z tables and affine buckets): Straus ≈ 22 µs at every size; Pippenger 58 µs at 8 points,
/// 43 at 16, 27 at 64–96, 20 at 128–256, 13 at 833. Smaller MSMs stay on one thread: they are the per-proof ones,
/// which the verification pool already spreads over the cores.
const STRAUS_PARALLEL: usize = 64;
const PIPPENGER_MIN: usize = 128;

/// Σ kᵢ·Pᵢ (variable time, public data).
pub fn msm(points: &[Affine], scalars: &[[u64; 4]]) -> Jacobian {
    let n = points.len();
    if n < STRAUS_PARALLEL {
        return straus(points, scalars);
    }
    if n < PIPPENGER_MIN {
        let half = n / 2;
        let (low, high) =
            on_two_threads(|| straus(&points[..half], &scalars[..half]), || straus(&points[half..], &scalars[half..]));
        return low.add(&high);
    }
    pippenger(points, scalars)
}

/// Runs `a` here and `b` on a second thread, and returns both results.
fn on_two_threads<A: Send, B: Send>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    std::thread::scope(|scope| {
        let second = scope.spawn(b);
        let first = a();
        (first, second.join().expect("msm worker thread panicked"))
    })
}

/// wNAF digits of a 128-bit GLV half: at most 129.
const STRAUS_DIGITS: usize = 130;

/// Straus' interleaved multiplication: every scalar splits by GLV into two 128-bit halves written as width-5 NAF;
/// one shared chain of 128 doublings adds, at each step, the table entries the digits select. The odd-multiple
/// tables of all points (each on its own common Z) are made affine together (one inversion), so every addition is a mixed one, and
/// the tables of φ(P) cost one multiplication per entry.
fn straus(points: &[Affine], scalars: &[[u64; 4]]) -> Jacobian {
    let mut table: Vec<Affine> = Vec::with_capacity(points.len() * ODD_MULTIPLES);
    let mut zs: Vec<Fp> = Vec::with_capacity(points.len());
    let mut digits: Vec<i8> = Vec::with_capacity(points.len() * 2 * STRAUS_DIGITS);
    let mut flips: Vec<bool> = Vec::with_capacity(points.len());
    let mut length = 0;
    for (p, k) in points.iter().zip(scalars) {
        if p.infinity || k.iter().all(|&l| l == 0) {
            continue;
        }
        let ((neg1, k1), (neg2, k2)) = split(k);
        let (entries, z) = odd_multiples_co_z(&if neg1 { p.neg() } else { *p });
        table.extend_from_slice(&entries);
        zs.push(z);
        for half in [k1, k2] {
            let d = wnaf(&[half as u64, (half >> 64) as u64, 0, 0], WNAF_WIDTH);
            length = length.max(d.len());
            let start = digits.len();
            digits.resize(start + STRAUS_DIGITS, 0);
            for (slot, v) in digits[start..].iter_mut().zip(d) {
                *slot = v as i8;
            }
        }
        flips.push(neg1 != neg2);
    }
    if flips.is_empty() {
        return Jacobian::INFINITY;
    }
    batch_invert(&mut zs);
    for (entries, zi) in table.chunks_exact_mut(ODD_MULTIPLES).zip(&zs) {
        let (zi2, zi3) = (zi.square(), zi.square().mul(zi));
        for e in entries {
            (e.x, e.y) = (e.x.mul(&zi2), e.y.mul(&zi3));
        }
    }
    // φ(±P) = (β·x, ±y): the sign of the second half's table differs from the first's when the halves' signs do.
    let phi: Vec<Affine> = table
        .iter()
        .enumerate()
        .map(|(i, a)| Affine {
            x: a.x.mul(&BETA),
            y: if flips[i / ODD_MULTIPLES] { a.y.neg() } else { a.y },
            infinity: false,
        })
        .collect();
    let add = |acc: Jacobian, entries: &[Affine], d: i8| -> Jacobian {
        if d > 0 {
            acc.add_affine(&entries[(d as usize) >> 1])
        } else if d < 0 {
            acc.add_affine(&entries[((-d) as usize) >> 1].neg())
        } else {
            acc
        }
    };
    let mut acc = Jacobian::INFINITY;
    for i in (0..length).rev() {
        acc = acc.double();
        for t in 0..flips.len() {
            let entries = t * ODD_MULTIPLES..(t + 1) * ODD_MULTIPLES;
            acc = add(acc, &table[entries.clone()], digits[(2 * t) * STRAUS_DIGITS + i]);
            acc = add(acc, &phi[entries], digits[(2 * t + 1) * STRAUS_DIGITS + i]);
        }
    }
    acc
}

/// Σ kᵢ·Pᵢ by Pippenger's bucket method with signed digits (variable time), the windows split over two threads.
/// GLV first turns each term into ±k₁·P + ±k₂·φ(P) with 128-bit k₁, k₂: twice the points, half the windows. The
/// buckets are affine and filled by batched affine additions (`fill_buckets`); each window's buckets are then
/// summed as Σ d·bucket[d], again by batched affine additions (`weighted_sums`).
fn pippenger(points: &[Affine], scalars: &[[u64; 4]]) -> Jacobian {
    let mut halves: Vec<[u64; 4]> = Vec::with_capacity(2 * points.len());
    let points: Vec<Affine> = points
        .iter()
        .zip(scalars)
        .flat_map(|(p, k)| {
            let ((neg1, k1), (neg2, k2)) = split(k);
            halves.push([k1 as u64, (k1 >> 64) as u64, 0, 0]);
            halves.push([k2 as u64, (k2 >> 64) as u64, 0, 0]);
            let phi = Affine { x: p.x.mul(&BETA), ..*p };
            [if neg1 { p.neg() } else { *p }, if neg2 { phi.neg() } else { phi }]
        })
        .collect();
    let points = &points[..];
    let n = points.len();
    // Window width minimising (windows) · (n affine additions of ~6 multiplications + 2^(c−1) buckets to sum at ~10).
    let c = (2..=16usize).min_by_key(|&c| signed_windows(c) * (6 * n + (10 << (c - 1)))).unwrap();
    let windows = signed_windows(c);
    let digits: Vec<i32> = halves.iter().flat_map(|k| signed_digits(k, c, windows)).collect();
    // Horner over windows [from, to): Σ 2^(c·(w − from)) · Σ_d d·bucket_w[d].
    let horner = |from: usize, to: usize| -> Jacobian {
        let per_window = 1 << (c - 1);
        let buckets = fill_buckets(points, |i, w| digits[i * windows + from + w], to - from, per_window);
        let mut total = Jacobian::INFINITY;
        for window_sum in weighted_sums(&buckets, per_window).iter().rev() {
            for _ in 0..c {
                total = total.double();
            }
            total = total.add(window_sum);
        }
        total
    };
    let split = windows / 2;
    let (low, mut high) = on_two_threads(|| horner(0, split), || horner(split, windows));
    for _ in 0..c * split {
        high = high.double();
    }
    high.add(&low)
}

/// Σ d·bucket[d − 1], by a running sum from the top bucket down.
fn weighted_sum(buckets: &[Affine]) -> Jacobian {
    let mut running = Jacobian::INFINITY;
    let mut sum = Jacobian::INFINITY;
    for bucket in buckets.iter().rev() {
        running = running.add_affine(bucket);
        sum = sum.add(&running);
    }
    sum
}

/// Digit width of the MSM tables over fixed bases, and the signed base-2^8 digits of a scalar below n < 2^254: the
/// top window holds bits 248–253 plus the carry, within the 2^7 buckets.
pub const TABLE_WINDOW: usize = 8;
pub const TABLE_WINDOWS: usize = 254usize.div_ceil(TABLE_WINDOW);
/// From this many table entries on, `msm_with_table` splits them over two threads.
const TABLE_PARALLEL: usize = 2048;

/// The MSM table of fixed bases: entry i·TABLE_WINDOWS + j is 2^(8j)·Bᵢ, affine (infinity for an infinite base).
pub fn msm_table(bases: &[Affine]) -> Vec<Affine> {
    let mut points = Vec::with_capacity(bases.len() * TABLE_WINDOWS);
    for base in bases {
        let mut multiple = base.to_jacobian();
        for _ in 0..TABLE_WINDOWS {
            points.push(multiple);
            for _ in 0..TABLE_WINDOW {
                multiple = multiple.double();
            }
        }
    }
    batch_normalize(&points)
}

/// Σ kᵢ·Bᵢ (variable time, public data) from the table of `msm_table`, read through `entry`: digit j of kᵢ selects
/// its bucket for the entry 2^(8j)·Bᵢ, so all the windows share one set of buckets — no doubling, and a single
/// bucket sum (per thread) instead of one per window. The bucket method for the prover's MSMs over the generators.
pub fn msm_with_table(entry: impl Fn(usize) -> Affine, scalars: &[[u64; 4]]) -> Jacobian {
    let mut points = Vec::with_capacity(scalars.len() * TABLE_WINDOWS);
    let mut digits = Vec::with_capacity(scalars.len() * TABLE_WINDOWS);
    for (i, k) in scalars.iter().enumerate() {
        if k.iter().all(|&l| l == 0) {
            continue;
        }
        for (j, d) in signed_digits(k, TABLE_WINDOW, TABLE_WINDOWS).into_iter().enumerate() {
            if d != 0 {
                points.push(entry(i * TABLE_WINDOWS + j));
                digits.push(d);
            }
        }
    }
    let buckets = 1 << (TABLE_WINDOW - 1);
    let sum =
        |from: usize, to: usize| weighted_sum(&fill_buckets(&points[from..to], |i, _| digits[from + i], 1, buckets));
    let n = points.len();
    if n < TABLE_PARALLEL {
        return sum(0, n);
    }
    let (low, high) = on_two_threads(|| sum(0, n / 2), || sum(n / 2, n));
    low.add(&high)
}

/// The sums of the buckets of `windows` windows (`per_window` each, bucket d − 1 for digit ±d): point i goes, negated
/// for a negative digit, into the bucket its digit `digit(i, w)` selects in every window w. The points are first
/// grouped by bucket (a counting sort); then each round adds neighbours pairwise in every bucket at once, halving
/// each group, with one field inversion shared by all the additions of the round (Montgomery's trick): an affine
/// addition then costs about six multiplications, and a bucket of m points needs ⌈log₂ m⌉ rounds.
fn fill_buckets(
    points: &[Affine],
    digit: impl Fn(usize, usize) -> i32,
    windows: usize,
    per_window: usize,
) -> Vec<Affine> {
    let buckets = windows * per_window;
    let bucket_of = |i: usize, w: usize| -> Option<(usize, bool)> {
        let d = digit(i, w);
        (d != 0 && !points[i].infinity).then(|| (w * per_window + d.unsigned_abs() as usize - 1, d < 0))
    };
    let mut start = vec![0usize; buckets + 1];
    for i in 0..points.len() {
        for w in 0..windows {
            if let Some((b, _)) = bucket_of(i, w) {
                start[b + 1] += 1;
            }
        }
    }
    for b in 0..buckets {
        start[b + 1] += start[b];
    }
    let mut len = vec![0usize; buckets];
    let mut slots = vec![Affine::INFINITY; start[buckets]];
    for (i, p) in points.iter().enumerate() {
        for w in 0..windows {
            if let Some((b, negative)) = bucket_of(i, w) {
                slots[start[b] + len[b]] = if negative { p.neg() } else { *p };
                len[b] += 1;
            }
        }
    }
    let mut active: Vec<usize> = (0..buckets).filter(|&b| len[b] > 1).collect();
    let mut denominators: Vec<Fp> = Vec::with_capacity(slots.len() / 2);
    while !active.is_empty() {
        denominators.clear();
        for &b in &active {
            for pair in slots[start[b]..start[b] + len[b]].chunks_exact(2) {
                denominators.push(sum_denominator(&pair[0], &pair[1]));
            }
        }
        batch_invert(&mut denominators);
        let mut inverses = denominators.iter();
        for &b in &active {
            let group = &mut slots[start[b]..start[b] + len[b]];
            // Pair j is read from slots 2j and 2j + 1 before slot j (≤ 2j) is written: the halving works in place.
            for j in 0..group.len() / 2 {
                group[j] = sum_with_inverse(&group[2 * j], &group[2 * j + 1], inverses.next().unwrap());
            }
            if group.len() % 2 == 1 {
                group[group.len() / 2] = group[group.len() - 1];
            }
            len[b] = len[b].div_ceil(2);
        }
        active.retain(|&b| len[b] > 1);
    }
    (0..buckets).map(|b| if len[b] == 0 { Affine::INFINITY } else { slots[start[b]] }).collect()
}

/// The denominator of the slope of p + q (affine): x_q − x_p, or 2y for equal points; 0 marks p + (−p), 1 a sum
/// with infinity in it (no slope needed).
#[inline(always)]
fn sum_denominator(p: &Affine, q: &Affine) -> Fp {
    if p.infinity || q.infinity {
        Fp::ONE
    } else if p.x != q.x {
        q.x.sub(&p.x)
    } else if p.y == q.y {
        p.y.double()
    } else {
        Fp::ZERO
    }
}

/// p + q (affine) given the inverse of `sum_denominator(p, q)`: the slope λ = (y_q − y_p)/(x_q − x_p), or 3x²/2y
/// for a doubling, then x₃ = λ² − x_p − x_q and y₃ = λ·(x_p − x₃) − y_p.
#[inline(always)]
fn sum_with_inverse(p: &Affine, q: &Affine, inverse: &Fp) -> Affine {
    if p.infinity {
        *q
    } else if q.infinity {
        *p
    } else if inverse.is_zero() {
        Affine::INFINITY
    } else {
        let lambda = if p.x != q.x {
            q.y.sub(&p.y).mul(inverse)
        } else {
            let xx = p.x.square();
            xx.double().add(&xx).mul(inverse)
        };
        let x3 = lambda.square().sub(&p.x).sub(&q.x);
        Affine { x: x3, y: lambda.mul(&p.x.sub(&x3)).sub(&p.y), infinity: false }
    }
}

/// acc[i] += addend(i) for every i, in affine coordinates with one shared field inversion (Montgomery's trick).
fn add_all(acc: &mut [Affine], addend: impl Fn(usize) -> Affine, denominators: &mut Vec<Fp>) {
    denominators.clear();
    denominators.extend(acc.iter().enumerate().map(|(i, p)| sum_denominator(p, &addend(i))));
    batch_invert(denominators);
    for (i, (p, inverse)) in acc.iter_mut().zip(denominators.iter()).enumerate() {
        *p = sum_with_inverse(p, &addend(i), inverse);
    }
}

/// Buckets per segment of `weighted_sums`.
const SEGMENT: usize = 16;

/// Σ_d d·bucket_w[d − 1] for each window w of `per_window` buckets (a power of two). Each window is cut into
/// segments of L buckets; every segment of every window runs its own running sum from its top bucket down, all in
/// step, so each step is one batch of affine additions sharing one inversion (instead of a Jacobian chain per
/// window). Segment j (buckets jL … jL + L − 1) leaves S_j = Σ_t (t + 1)·bucket[jL + t] and R_j = Σ_t bucket[jL + t];
/// the window's sum is Σ_j S_j + L·Σ_j j·R_j.
fn weighted_sums(buckets: &[Affine], per_window: usize) -> Vec<Jacobian> {
    let length = SEGMENT.min(per_window);
    let segments = per_window / length;
    let lanes = buckets.len() / length;
    let bucket = |lane: usize, t: usize| buckets[lane * length + t];
    let mut running = vec![Affine::INFINITY; lanes];
    let mut sums = vec![Affine::INFINITY; lanes];
    let mut denominators = Vec::with_capacity(lanes);
    for t in (0..length).rev() {
        add_all(&mut running, |lane| bucket(lane, t), &mut denominators);
        add_all(&mut sums, |lane| running[lane], &mut denominators);
    }
    (0..lanes / segments)
        .map(|w| {
            let lanes = w * segments..(w + 1) * segments;
            let mut total = weighted_sum(&running[lanes.start + 1..lanes.end]);
            for _ in 0..length.trailing_zeros() {
                total = total.double();
            }
            sums[lanes].iter().fold(total, |acc, s| acc.add_affine(s))
        })
        .collect()
}

/// The number of signed base-2^c digits of a 128-bit GLV half: enough windows for 129 bits, so that the top window's
/// bits are below 2^(c−1) and, with the carry from below, its digit is at most 2^(c−1): no window beyond it is needed.
fn signed_windows(c: usize) -> usize {
    129usize.div_ceil(c)
}

/// k (< 2^128) as `windows` signed base-2^c digits, least significant first: in [−2^(c−1), 2^(c−1)), except the top
/// one, in [0, 2^(c−1)], which keeps the last carry.
fn signed_digits(k: &[u64; 4], c: usize, windows: usize) -> Vec<i32> {
    let half = 1i64 << (c - 1);
    let mut carry = 0i64;
    (0..windows)
        .map(|w| {
            let mut d = bits(k, w * c, c) as i64 + carry;
            carry = 0;
            if d >= half && w + 1 < windows {
                d -= 1 << c;
                carry = 1;
            }
            d as i32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bn254::hash_to_point::hash_to_point;
    use crate::bn254::tests::double_and_add;

    #[test]
    fn batched_weighted_sums_match_the_running_sum() {
        let p = hash_to_point(b"buckets");
        let mut seed = 3u64;
        for per_window in [1usize, 2, 4, 16, 32, 64] {
            let mut buckets: Vec<Affine> = (0..3 * per_window)
                .map(|i| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    match seed >> 61 {
                        0 => Affine::INFINITY,
                        1 => p,
                        2 => p.neg(),
                        _ => hash_to_point(&(i as u64).to_be_bytes()),
                    }
                })
                .collect();
            // From the top down: a running sum that doubles (P then P), one that cancels (−P after 2P, then −P), and
            // a doubling of the segment's sum (P after infinity, then infinity).
            let top = buckets.len() - 1;
            if per_window >= 4 {
                buckets[top - 3..].copy_from_slice(&[p.neg(), p.neg(), p, p]);
                buckets[..3].copy_from_slice(&[Affine::INFINITY, p, Affine::INFINITY]);
            }
            let expected: Vec<Affine> = buckets.chunks_exact(per_window).map(|w| weighted_sum(w).to_affine()).collect();
            let batched: Vec<Affine> = weighted_sums(&buckets, per_window).iter().map(Jacobian::to_affine).collect();
            assert_eq!(batched, expected, "{per_window} buckets per window");
        }
        let all_infinite = vec![Affine::INFINITY; 32];
        assert!(weighted_sums(&all_infinite, 16).iter().all(Jacobian::is_infinity));
    }

    #[test]
    fn signed_digits_recombine_within_the_bucket_range() {
        let p = hash_to_point(b"digits");
        let all_ones = [u64::MAX, u64::MAX, 0, 0];
        let half_ones = [0x5555_5555_5555_5555, 0x5555_5555_5555_5555, 0, 0];
        let top_bit = [0, 1 << 63, 0, 0];
        for c in 2..=16 {
            let windows = signed_windows(c);
            for k in [all_ones, half_ones, top_bit, [0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210, 0, 0]] {
                let digits = signed_digits(&k, c, windows);
                let half = 1i32 << (c - 1);
                assert!(digits.iter().all(|&d| -half <= d && d <= half), "c = {c}: {digits:?}");
                let mut sum = Jacobian::INFINITY;
                for &d in digits.iter().rev() {
                    for _ in 0..c {
                        sum = sum.double();
                    }
                    let term = double_and_add(&p, &[d.unsigned_abs() as u64, 0, 0, 0]);
                    sum = sum.add(&if d < 0 { term.neg() } else { term });
                }
                assert_eq!(sum.to_affine(), double_and_add(&p, &k).to_affine(), "c = {c}, k = {k:x?}");
            }
        }
    }
}
