//! The BN254 base field F_p in Montgomery form on four little-endian 64-bit limbs (R = 2^256).
//! Multiplication is CIOS without the extra carry word (valid because p < 2^254); the final reduction is
//! branch-free, so add/sub/mul/square take the same time for every input (used by the constant-time multiplication).

use super::inversion::invert_mod_p;

pub const P: [u64; 4] = [0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d, 0x30644e72e131a029];
/// −p⁻¹ mod 2^64.
const INV: u64 = 0x87d20782e4866389;
/// R² mod p: multiplying by it enters Montgomery form.
const R2: [u64; 4] = [0xf32cfc5b538afa89, 0xb5e71911d44501fb, 0x47ab1eff0a417ff6, 0x06d89f71cab8351f];
/// R³ mod p: turns the plain inverse of a Montgomery value back into Montgomery form.
const R3: [u64; 4] = [0xb1cd6dafda1530df, 0x62f210e6a7283db6, 0xef7f0b0c0ada0afb, 0x20fd6e902d592544];
/// R mod p: one in Montgomery form.
const R1: [u64; 4] = [0xd35d438dc58f0d9d, 0x0a78eb28f5c70b3d, 0x666ea36f7879462c, 0x0e0a77c19a07df2f];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Fp(pub [u64; 4]);

#[inline(always)]
fn mac(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = acc as u128 + (a as u128) * (b as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

#[inline(always)]
fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

#[inline(always)]
fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128 + borrow as u128);
    (t as u64, (t >> 127) as u64)
}

/// a − b over 256 bits, and the borrow (1 when a < b).
#[inline(always)]
pub fn sub_limbs(a: &[u64; 4], b: &[u64; 4]) -> ([u64; 4], u64) {
    let (r0, c) = sbb(a[0], b[0], 0);
    let (r1, c) = sbb(a[1], b[1], c);
    let (r2, c) = sbb(a[2], b[2], c);
    let (r3, c) = sbb(a[3], b[3], c);
    ([r0, r1, r2, r3], c)
}

/// a mod m for a < 2m, without branches.
#[inline(always)]
fn reduce_once_mod(a: [u64; 4], m: &[u64; 4]) -> [u64; 4] {
    let (r, borrow) = sub_limbs(&a, m);
    let keep_a = 0u64.wrapping_sub(borrow); // all ones when a < m
    [
        (a[0] & keep_a) | (r[0] & !keep_a),
        (a[1] & keep_a) | (r[1] & !keep_a),
        (a[2] & keep_a) | (r[2] & !keep_a),
        (a[3] & keep_a) | (r[3] & !keep_a),
    ]
}

/// a + b mod m for a, b < m < 2^255, without branches.
#[inline(always)]
pub fn add_mod(a: &[u64; 4], b: &[u64; 4], m: &[u64; 4]) -> [u64; 4] {
    let (r0, c) = adc(a[0], b[0], 0);
    let (r1, c) = adc(a[1], b[1], c);
    let (r2, c) = adc(a[2], b[2], c);
    let (r3, _) = adc(a[3], b[3], c);
    reduce_once_mod([r0, r1, r2, r3], m)
}

/// Montgomery product a·b·2^−256 mod m for a, b < m, a modulus m < 2^254 and inv = −m⁻¹ mod 2^64: CIOS without
/// the extra carry word, branch-free. F_p uses it with p; the scalar field can with n (both are below 2^254).
#[inline(always)]
pub fn mont_mul(a: &[u64; 4], b: &[u64; 4], m: &[u64; 4], inv: u64) -> [u64; 4] {
    // One CIOS round: t = (t + a_i·b + k·m) / 2^64 with k chosen so the low word vanishes.
    macro_rules! round {
        ($t0:expr, $t1:expr, $t2:expr, $t3:expr, $ai:expr) => {{
            let (x0, c) = mac($t0, $ai, b[0], 0);
            let k = x0.wrapping_mul(inv);
            let (_, c2) = mac(x0, k, m[0], 0);
            let (x1, c) = mac($t1, $ai, b[1], c);
            let (r0, c2) = mac(x1, k, m[1], c2);
            let (x2, c) = mac($t2, $ai, b[2], c);
            let (r1, c2) = mac(x2, k, m[2], c2);
            let (x3, c) = mac($t3, $ai, b[3], c);
            let (r2, c2) = mac(x3, k, m[3], c2);
            (r0, r1, r2, c.wrapping_add(c2))
        }};
    }
    let (t0, t1, t2, t3) = round!(0, 0, 0, 0, a[0]);
    let (t0, t1, t2, t3) = round!(t0, t1, t2, t3, a[1]);
    let (t0, t1, t2, t3) = round!(t0, t1, t2, t3, a[2]);
    let (t0, t1, t2, t3) = round!(t0, t1, t2, t3, a[3]);
    reduce_once_mod([t0, t1, t2, t3], m)
}

/// Montgomery square a²·2^−256 mod p for a < p, branch-free: the ten distinct limb products (the six cross products
/// once, doubled by a shift, then the four squares) instead of sixteen, and the reduction as a separate pass of four
/// rounds over the eight-limb square. The result before the final subtraction is below 2p < 2^255, so no carry
/// leaves the top limb.
#[inline(always)]
fn mont_square(a: &[u64; 4]) -> [u64; 4] {
    let (r1, c) = mac(0, a[0], a[1], 0);
    let (r2, c) = mac(0, a[0], a[2], c);
    let (r3, r4) = mac(0, a[0], a[3], c);
    let (r3, c) = mac(r3, a[1], a[2], 0);
    let (r4, r5) = mac(r4, a[1], a[3], c);
    let (r5, r6) = mac(r5, a[2], a[3], 0);
    let r7 = r6 >> 63;
    let r6 = (r6 << 1) | (r5 >> 63);
    let r5 = (r5 << 1) | (r4 >> 63);
    let r4 = (r4 << 1) | (r3 >> 63);
    let r3 = (r3 << 1) | (r2 >> 63);
    let r2 = (r2 << 1) | (r1 >> 63);
    let r1 = r1 << 1;
    let (r0, c) = mac(0, a[0], a[0], 0);
    let (r1, c) = adc(r1, 0, c);
    let (r2, c) = mac(r2, a[1], a[1], c);
    let (r3, c) = adc(r3, 0, c);
    let (r4, c) = mac(r4, a[2], a[2], c);
    let (r5, c) = adc(r5, 0, c);
    let (r6, c) = mac(r6, a[3], a[3], c);
    let (r7, _) = adc(r7, 0, c);
    // One reduction round: adds k·p·2^(64i) so that limb i vanishes; `$hi` takes the previous round's top carry.
    macro_rules! round {
        ($t0:expr, $t1:expr, $t2:expr, $t3:expr, $t4:expr, $hi:expr) => {{
            let k = $t0.wrapping_mul(INV);
            let (_, c) = mac($t0, k, P[0], 0);
            let (t1, c) = mac($t1, k, P[1], c);
            let (t2, c) = mac($t2, k, P[2], c);
            let (t3, c) = mac($t3, k, P[3], c);
            let (t4, hi) = adc($t4, c, $hi);
            (t1, t2, t3, t4, hi)
        }};
    }
    let (r1, r2, r3, r4, hi) = round!(r0, r1, r2, r3, r4, 0);
    let (r2, r3, r4, r5, hi) = round!(r1, r2, r3, r4, r5, hi);
    let (r3, r4, r5, r6, hi) = round!(r2, r3, r4, r5, r6, hi);
    let (r4, r5, r6, r7, _) = round!(r3, r4, r5, r6, r7, hi);
    reduce_once_mod([r4, r5, r6, r7], &P)
}

/// Assembly for `mont_mul_p`: t += a[i]·b, with the carry word in x (rounds 1–3; round 0 starts from t = 0).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2", target_feature = "adx"))]
macro_rules! mul_round {
    ($offset:literal) => {
        concat!(
            "mov rdx, qword ptr [{a} + ",
            $offset,
            "]\n",
            "xor {lo:e}, {lo:e}\n",
            "mulx {hi}, {lo}, qword ptr [{b}]\n",
            "adox {t0}, {lo}\n",
            "adcx {t1}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [{b} + 8]\n",
            "adox {t1}, {lo}\n",
            "adcx {t2}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [{b} + 16]\n",
            "adox {t2}, {lo}\n",
            "adcx {t3}, {hi}\n",
            "mulx {x}, {lo}, qword ptr [{b} + 24]\n",
            "adox {t3}, {lo}\n",
            "mov {lo}, 0\n",
            "adcx {x}, {lo}\n",
            "adox {x}, {lo}\n",
        )
    };
}

/// Assembly for `mont_mul_p`: t = (t + k·p)/2^64 with k = t0·(−p⁻¹) mod 2^64, the carry word x entering the top.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2", target_feature = "adx"))]
macro_rules! reduce_round {
    () => {
        concat!(
            "mov rdx, {inv}\n",
            "imul rdx, {t0}\n",
            "xor {lo:e}, {lo:e}\n",
            "mulx {hi}, {lo}, qword ptr [{p}]\n",
            "adcx {lo}, {t0}\n",
            "mov {t0}, {hi}\n",
            "adcx {t0}, {t1}\n",
            "mulx {t1}, {lo}, qword ptr [{p} + 8]\n",
            "adox {t0}, {lo}\n",
            "adcx {t1}, {t2}\n",
            "mulx {t2}, {lo}, qword ptr [{p} + 16]\n",
            "adox {t1}, {lo}\n",
            "adcx {t2}, {t3}\n",
            "mulx {t3}, {lo}, qword ptr [{p} + 24]\n",
            "adox {t2}, {lo}\n",
            "mov {lo}, 0\n",
            "adcx {t3}, {lo}\n",
            "adox {t3}, {x}\n",
        )
    };
}

/// The F_p Montgomery product: the CIOS rounds of `mont_mul` written with mulx and the two carry chains of adcx
/// (carry flag) and adox (overflow flag), which the compiler does not use, so that the additions of the high and the
/// low halves of the limb products run side by side. Only where the build targets a CPU with BMI2 and ADX (the addon
/// is built with `-C target-cpu=native`); elsewhere `mont_mul`. Branch-free either way.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2", target_feature = "adx"))]
#[inline(always)]
fn mont_mul_p(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (t0, t1, t2, t3): (u64, u64, u64, u64);
    // SAFETY: reads the four limbs behind `a`, `b` and `P`, writes only its output registers; no stack use.
    unsafe {
        std::arch::asm!(
            "mov rdx, qword ptr [{a}]",
            "mulx {t1}, {t0}, qword ptr [{b}]",
            "mulx {t2}, {lo}, qword ptr [{b} + 8]",
            "add {t1}, {lo}",
            "mulx {t3}, {hi}, qword ptr [{b} + 16]",
            "adc {t2}, {hi}",
            "mulx {x}, {lo}, qword ptr [{b} + 24]",
            "adc {t3}, {lo}",
            "adc {x}, 0",
            reduce_round!(),
            mul_round!("8"),
            reduce_round!(),
            mul_round!("16"),
            reduce_round!(),
            mul_round!("24"),
            reduce_round!(),
            a = in(reg) a.as_ptr(),
            b = in(reg) b.as_ptr(),
            p = in(reg) P.as_ptr(),
            inv = in(reg) INV,
            t0 = out(reg) t0,
            t1 = out(reg) t1,
            t2 = out(reg) t2,
            t3 = out(reg) t3,
            x = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    reduce_once_mod([t0, t1, t2, t3], &P)
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2", target_feature = "adx")))]
#[inline(always)]
fn mont_mul_p(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    mont_mul(a, b, &P, INV)
}

/// Whether a < b as 256-bit integers.
pub fn less_than(a: &[u64; 4], b: &[u64; 4]) -> bool {
    sub_limbs(a, b).1 == 1
}

pub fn limbs_from_be(bytes: &[u8]) -> [u64; 4] {
    let mut limbs = [0u64; 4];
    for (i, limb) in limbs.iter_mut().enumerate() {
        let start = 24 - 8 * i;
        *limb = u64::from_be_bytes(bytes[start..start + 8].try_into().unwrap());
    }
    limbs
}

pub fn limbs_to_be(limbs: &[u64; 4], out: &mut [u8]) {
    for (i, limb) in limbs.iter().enumerate() {
        let start = 24 - 8 * i;
        out[start..start + 8].copy_from_slice(&limb.to_be_bytes());
    }
}

impl Fp {
    pub const ZERO: Fp = Fp([0; 4]);
    pub const ONE: Fp = Fp(R1);

    /// From a canonical integer (< p) in standard form.
    pub fn from_canonical(limbs: [u64; 4]) -> Fp {
        Fp(limbs).mul(&Fp(R2))
    }

    /// From 32 big-endian bytes; None when the value is ≥ p.
    pub fn from_be_bytes(bytes: &[u8]) -> Option<Fp> {
        let limbs = limbs_from_be(bytes);
        less_than(&limbs, &P).then(|| Fp::from_canonical(limbs))
    }

    /// The canonical integer (standard form).
    pub fn to_canonical(&self) -> [u64; 4] {
        self.mul(&Fp([1, 0, 0, 0])).0
    }

    pub fn to_be_bytes(&self, out: &mut [u8]) {
        limbs_to_be(&self.to_canonical(), out);
    }

    pub fn from_u64(v: u64) -> Fp {
        Fp::from_canonical([v, 0, 0, 0])
    }

    #[inline(always)]
    pub fn is_zero(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// All ones when zero, else 0 (no branch).
    #[inline(always)]
    pub fn zero_mask(&self) -> u64 {
        let v = self.0[0] | self.0[1] | self.0[2] | self.0[3];
        ((v | v.wrapping_neg()) >> 63).wrapping_sub(1)
    }

    /// `a` where mask is all ones, `b` where it is 0.
    #[inline(always)]
    pub fn select(mask: u64, a: &Fp, b: &Fp) -> Fp {
        Fp([
            (a.0[0] & mask) | (b.0[0] & !mask),
            (a.0[1] & mask) | (b.0[1] & !mask),
            (a.0[2] & mask) | (b.0[2] & !mask),
            (a.0[3] & mask) | (b.0[3] & !mask),
        ])
    }

    #[inline(always)]
    pub fn add(&self, b: &Fp) -> Fp {
        Fp(add_mod(&self.0, &b.0, &P))
    }

    #[inline(always)]
    pub fn double(&self) -> Fp {
        self.add(self)
    }

    #[inline(always)]
    pub fn sub(&self, b: &Fp) -> Fp {
        let (r, borrow) = sub_limbs(&self.0, &b.0);
        let mask = 0u64.wrapping_sub(borrow);
        let (r0, c) = adc(r[0], P[0] & mask, 0);
        let (r1, c) = adc(r[1], P[1] & mask, c);
        let (r2, c) = adc(r[2], P[2] & mask, c);
        let (r3, _) = adc(r[3], P[3] & mask, c);
        Fp([r0, r1, r2, r3])
    }

    #[inline(always)]
    pub fn neg(&self) -> Fp {
        Fp::ZERO.sub(self)
    }

    #[inline(always)]
    pub fn mul(&self, b: &Fp) -> Fp {
        Fp(mont_mul_p(&self.0, &b.0))
    }

    #[inline(always)]
    pub fn square(&self) -> Fp {
        Fp(mont_square(&self.0))
    }

    /// self^e for a public exponent (standard-form limbs), with 4-bit fixed windows.
    pub fn pow(&self, e: &[u64; 4]) -> Fp {
        let mut powers = [Fp::ONE; 16];
        for i in 1..16 {
            powers[i] = powers[i - 1].mul(self);
        }
        let mut acc = Fp::ONE;
        for window in (0..64).rev() {
            for _ in 0..4 {
                acc = acc.square();
            }
            let digit = ((e[window / 16] >> ((window % 16) * 4)) & 0xf) as usize;
            if digit != 0 {
                acc = acc.mul(&powers[digit]);
            }
        }
        acc
    }

    /// 1/self by Fermat (self^(p−2)); zero maps to zero. The exponent is fixed, so the time does not depend on self:
    /// use this for secrets.
    pub fn invert(&self) -> Fp {
        const P_MINUS_2: [u64; 4] = [P[0] - 2, P[1], P[2], P[3]];
        self.pow(&P_MINUS_2)
    }

    /// 1/self by Bernstein–Yang divsteps (variable time, several times faster than Fermat): for public data only.
    /// Zero maps to zero.
    pub fn invert_vartime(&self) -> Fp {
        if self.is_zero() {
            return Fp::ZERO;
        }
        // (self·R)⁻¹ · R³ / R = self⁻¹ · R: the inverse in Montgomery form.
        Fp(invert_mod_p(&self.0)).mul(&Fp(R3))
    }

    /// A square root (p ≡ 3 mod 4: self^((p+1)/4)), or None for a non-residue.
    pub fn sqrt(&self) -> Option<Fp> {
        let root = self.pow(&SQRT_EXP);
        (root.square() == *self).then_some(root)
    }

    /// Whether the canonical value is greater than (p−1)/2, i.e. y > p − y ("the larger root").
    pub fn is_larger_root(&self) -> bool {
        less_than(&HALF_P, &self.to_canonical())
    }
}

/// (p + 1) / 4.
const SQRT_EXP: [u64; 4] = [0x4f082305b61f3f52, 0x65e05aa45a1c72a3, 0x6e14116da0605617, 0x0c19139cb84c680a];
/// (p − 1) / 2.
const HALF_P: [u64; 4] = [0x9e10460b6c3e7ea3, 0xcbc0b548b438e546, 0xdc2822db40c0ac2e, 0x183227397098d014];

/// Inverts every non-zero element in place with one field inversion (Montgomery's trick); zeros stay zero.
/// The even and the odd positions form two chains of products, interleaved so that the processor overlaps their
/// multiplications (one chain would wait on each product's latency). Variable time: public data only.
pub fn batch_invert(values: &mut [Fp]) {
    let mut prefix = Vec::with_capacity(values.len());
    let mut acc = [Fp::ONE; 2];
    for (i, v) in values.iter().enumerate() {
        prefix.push(acc[i & 1]);
        if !v.is_zero() {
            acc[i & 1] = acc[i & 1].mul(v);
        }
    }
    let both = acc[0].mul(&acc[1]).invert_vartime();
    let mut inv = [both.mul(&acc[1]), both.mul(&acc[0])];
    for (i, (v, before)) in values.iter_mut().zip(prefix.iter()).enumerate().rev() {
        if v.is_zero() {
            continue;
        }
        let vi = inv[i & 1].mul(before);
        inv[i & 1] = inv[i & 1].mul(v);
        *v = vi;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn montgomery_constants() {
        assert_eq!(Fp::from_u64(1), Fp::ONE);
        assert_eq!(Fp::from_u64(7).to_canonical(), [7, 0, 0, 0]);
        // (p+1)/4 and (p−1)/2 are what they claim to be.
        let mut four_q = [0u64; 4];
        let mut carry = 0u64;
        for i in 0..4 {
            let t = (SQRT_EXP[i] as u128) * 4 + carry as u128;
            four_q[i] = t as u64;
            carry = (t >> 64) as u64;
        }
        assert_eq!(four_q, [P[0] + 1, P[1], P[2], P[3]]);
        let two_h = [
            HALF_P[0] << 1,
            (HALF_P[1] << 1) | (HALF_P[0] >> 63),
            (HALF_P[2] << 1) | (HALF_P[1] >> 63),
            (HALF_P[3] << 1) | (HALF_P[2] >> 63),
        ];
        assert_eq!(two_h, [P[0] - 1, P[1], P[2], P[3]]);
    }

    #[test]
    fn field_laws() {
        let a = Fp::from_u64(123456789);
        let b = Fp::from_u64(987654321);
        assert_eq!(a.mul(&b).to_canonical(), [123456789u64 * 987654321, 0, 0, 0]);
        assert_eq!(a.sub(&b).add(&b), a);
        assert_eq!(a.mul(&a.invert()), Fp::ONE);
        let mut x = b;
        for _ in 0..200 {
            assert_eq!(x.invert_vartime(), x.invert());
            x = x.square().add(&a);
        }
        assert_eq!(Fp::ZERO.invert_vartime(), Fp::ZERO);
        assert_eq!(Fp::ONE.invert_vartime(), Fp::ONE);
        assert_eq!(a.neg().add(&a), Fp::ZERO);
        let s = a.square();
        let r = s.sqrt().unwrap();
        assert!(r == a || r == a.neg());
        let p_minus_1 = Fp::from_canonical([P[0] - 1, P[1], P[2], P[3]]);
        for v in [Fp::ZERO, Fp::ONE, p_minus_1, Fp(p_minus_1.0), Fp([u64::MAX, u64::MAX, u64::MAX, P[3] >> 1])] {
            assert_eq!(v.square(), v.mul(&v), "{v:?}");
        }
        let mut y = a;
        for _ in 0..1000 {
            assert_eq!(y.square(), y.mul(&y));
            assert_eq!(mont_mul_p(&y.0, &p_minus_1.0), mont_mul(&y.0, &p_minus_1.0, &P, INV));
            y = y.mul(&b).add(&a);
        }
        let mut batch = [a, Fp::ZERO, b, b.add(&a), Fp::ZERO];
        batch_invert(&mut batch);
        assert_eq!(batch, [a.invert(), Fp::ZERO, b.invert(), b.add(&a).invert(), Fp::ZERO]);
        for len in 0..4 {
            let mut batch = vec![a; len];
            batch_invert(&mut batch);
            assert_eq!(batch, vec![a.invert(); len]);
        }
    }
}
