//! Variable-time inversion modulo p with the divsteps of Bernstein and Yang ("Fast constant-time gcd computation
//! and modular inversion", 2019), in their variable-time form: 62 divsteps at a time are worked out on the low
//! 64 bits of f and g alone, as a 2×2 transition matrix, which is then applied to the full values. Several times
//! faster than the binary extended Euclidean algorithm; for public data only.

use super::fp::P;

/// Numbers as five signed 62-bit limbs, least significant first: Σ limb[i]·2^(62·i), limbs 0–3 in [0, 2^62) and
/// the sign in limb 4.
type Limbs62 = [i64; 5];

const M62: u64 = u64::MAX >> 2;
/// p⁻¹ mod 2^62.
const P_INV62: u64 = 0x382df87d1b799c77;

const fn to_limbs62(a: &[u64; 4]) -> Limbs62 {
    [
        (a[0] & M62) as i64,
        ((a[0] >> 62 | a[1] << 2) & M62) as i64,
        ((a[1] >> 60 | a[2] << 4) & M62) as i64,
        ((a[2] >> 58 | a[3] << 6) & M62) as i64,
        (a[3] >> 56) as i64,
    ]
}

/// Back to four 64-bit limbs, for 0 ≤ a < 2^256.
fn from_limbs62(a: &Limbs62) -> [u64; 4] {
    let l = a.map(|x| x as u64);
    [l[0] | l[1] << 62, l[1] >> 2 | l[2] << 60, l[2] >> 4 | l[3] << 58, l[3] >> 6 | l[4] << 56]
}

const P62: Limbs62 = to_limbs62(&P);

/// The transition matrix of a batch of 62 divsteps, scaled by 2^62: after it, f·2^62 = u·f₀ + v·g₀ and
/// g·2^62 = q·f₀ + r·g₀.
struct Transition {
    u: i64,
    v: i64,
    q: i64,
    r: i64,
}

/// 62 divsteps on the low bits of f (odd) and g, from η = −δ; returns the new η and the matrix. Runs of zero bits
/// of g are skipped at once, and while η ≥ 0 up to six steps that add f are merged into one multiple of f.
fn divsteps_62(mut eta: i64, mut f: u64, mut g: u64) -> (i64, Transition) {
    let (mut u, mut v, mut q, mut r) = (1i64, 0i64, 0i64, 1i64);
    let mut left = 62u32;
    loop {
        let zeros = (g | (u64::MAX << left)).trailing_zeros();
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros as i64;
        left -= zeros;
        if left == 0 {
            return (eta, Transition { u, v, q, r });
        }
        // g is odd here.
        if eta < 0 {
            eta = -eta;
            (f, g, u, v, q, r) = (g, f.wrapping_neg(), q, r, -u, -v);
        }
        // g + w·f ≡ 0 mod 2^limit, with −f⁻¹ mod 64 = f·(f² − 2) (one Newton step from f⁻¹ ≡ f mod 8).
        let limit = ((eta + 1) as u32).min(left).min(6);
        let mask = u64::MAX >> (64 - limit);
        let w = f.wrapping_mul(g).wrapping_mul(f.wrapping_mul(f).wrapping_sub(2)) & mask;
        g = g.wrapping_add(f.wrapping_mul(w));
        q += u * w as i64;
        r += v * w as i64;
    }
}

/// a + k·p with the carries propagated (limbs 0–3 back in [0, 2^62)).
fn add_multiple_of_p(a: &mut Limbs62, k: i64) {
    let mut carry = 0i128;
    for i in 0..4 {
        carry += a[i] as i128 + k as i128 * P62[i] as i128;
        a[i] = (carry as u64 & M62) as i64;
        carry >>= 62;
    }
    a[4] = (carry + a[4] as i128 + k as i128 * P62[4] as i128) as i64;
}

/// From (−p, 2p) into [0, p).
fn reduce(a: &mut Limbs62) {
    if a[4] < 0 {
        add_multiple_of_p(a, 1);
    } else if (0..5).rev().map(|i| a[i].cmp(&P62[i])).find(|o| o.is_ne()) != Some(std::cmp::Ordering::Less) {
        add_multiple_of_p(a, -1);
    }
}

/// (a, b) ← (u·a + v·b + k·p, q·a + r·b + l·p) / 2^62, with k, l in [0, 2^62) chosen to make both sums divisible
/// by 2^62. For (f, g) the sums already are (the matrix is built for that), so k = l = 0 and the division is exact;
/// for (d, e) in [0, p) the quotients land in (−p, 2p), and stand for (u·d + v·e)/2^62 mod p.
fn apply(a: &mut Limbs62, b: &mut Limbs62, t: &Transition) {
    let (u, v, q, r) = (t.u as i128, t.v as i128, t.q as i128, t.r as i128);
    let mut ca = u * a[0] as i128 + v * b[0] as i128;
    let mut cb = q * a[0] as i128 + r * b[0] as i128;
    let k = ((ca as u64).wrapping_mul(P_INV62).wrapping_neg() & M62) as i128;
    let l = ((cb as u64).wrapping_mul(P_INV62).wrapping_neg() & M62) as i128;
    ca = (ca + k * P62[0] as i128) >> 62;
    cb = (cb + l * P62[0] as i128) >> 62;
    for i in 1..5 {
        ca += u * a[i] as i128 + v * b[i] as i128 + k * P62[i] as i128;
        cb += q * a[i] as i128 + r * b[i] as i128 + l * P62[i] as i128;
        a[i - 1] = (ca as u64 & M62) as i64;
        b[i - 1] = (cb as u64 & M62) as i64;
        ca >>= 62;
        cb >>= 62;
    }
    a[4] = ca as i64;
    b[4] = cb as i64;
}

/// x⁻¹ mod p for 0 < x < p (plain integers, not Montgomery form).
pub fn invert_mod_p(x: &[u64; 4]) -> [u64; 4] {
    // Invariants: d·x ≡ f and e·x ≡ g (mod p). g reaches 0 with f = ±gcd(p, x) = ±1.
    let (mut f, mut g) = (P62, to_limbs62(x));
    let (mut d, mut e): (Limbs62, Limbs62) = ([0; 5], [1, 0, 0, 0, 0]);
    let mut eta = -1;
    while g.iter().any(|&l| l != 0) {
        let transition;
        (eta, transition) = divsteps_62(eta, f[0] as u64 | (f[1] as u64) << 62, g[0] as u64 | (g[1] as u64) << 62);
        apply(&mut f, &mut g, &transition);
        apply(&mut d, &mut e, &transition);
        reduce(&mut d);
        reduce(&mut e);
    }
    if f[4] < 0 {
        d = d.map(|l| -l);
        add_multiple_of_p(&mut d, 1);
    }
    from_limbs62(&d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bn254::fp::Fp;

    fn check(x: [u64; 4]) {
        let inverse = invert_mod_p(&x);
        // Both as plain integers: x·x⁻¹ = 1 (the Montgomery factors cancel through from_canonical/to_canonical).
        assert_eq!(Fp::from_canonical(x).mul(&Fp::from_canonical(inverse)).to_canonical(), [1, 0, 0, 0], "{x:x?}");
    }

    #[test]
    fn inverts_edge_values() {
        for x in
            [[1, 0, 0, 0], [2, 0, 0, 0], [P[0] - 1, P[1], P[2], P[3]], [P[0] - 2, P[1], P[2], P[3]], [0, 0, 0, 1 << 61]]
        {
            check(x);
        }
    }

    #[test]
    fn inverts_pseudo_random_values() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        for _ in 0..20_000 {
            let mut x = [0u64; 4];
            for limb in x.iter_mut() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *limb = seed;
            }
            x[3] %= P[3];
            if x != [0; 4] {
                check(x);
            }
        }
    }
}
