//! Homogeneous projective points (x = X/Z, y = Y/Z) with the complete formulas of Renes, Costello and Batina
//! ("Complete addition formulas for prime order elliptic curves", 2016, algorithms 7 and 9 for a = 0): one formula
//! for every pair of inputs — equal points, opposite points, infinity — so the constant-time multiplication needs
//! no special case and no branch.

use super::fp::Fp;
use super::point::Affine;

#[derive(Clone, Copy, Debug)]
pub struct Projective {
    pub x: Fp,
    pub y: Fp,
    pub z: Fp,
}

/// 3·b = 9.
#[inline(always)]
fn times_b3(t: &Fp) -> Fp {
    t.double().double().double().add(t)
}

impl Projective {
    pub const INFINITY: Projective = Projective { x: Fp::ZERO, y: Fp::ONE, z: Fp::ZERO };

    /// From a public affine point (the branch is on public data).
    pub fn from_affine(p: &Affine) -> Projective {
        if p.infinity {
            Projective::INFINITY
        } else {
            Projective { x: p.x, y: p.y, z: Fp::ONE }
        }
    }

    /// P + Q for any P, Q (12 multiplications).
    #[inline(always)]
    pub fn add(&self, q: &Projective) -> Projective {
        let t0 = self.x.mul(&q.x);
        let t1 = self.y.mul(&q.y);
        let t2 = self.z.mul(&q.z);
        let t3 = self.x.add(&self.y).mul(&q.x.add(&q.y)).sub(&t0.add(&t1));
        let t4 = self.y.add(&self.z).mul(&q.y.add(&q.z)).sub(&t1.add(&t2));
        let y3 = self.x.add(&self.z).mul(&q.x.add(&q.z)).sub(&t0.add(&t2));
        let t0 = t0.double().add(&t0);
        let t2 = times_b3(&t2);
        let z3 = t1.add(&t2);
        let t1 = t1.sub(&t2);
        let y3 = times_b3(&y3);
        let x3 = t3.mul(&t1).sub(&t4.mul(&y3));
        let y3 = t1.mul(&z3).add(&y3.mul(&t0));
        let z3 = z3.mul(&t4).add(&t0.mul(&t3));
        Projective { x: x3, y: y3, z: z3 }
    }

    /// 2·P for any P (6 multiplications, 2 squarings).
    #[inline(always)]
    pub fn double(&self) -> Projective {
        let t0 = self.y.square();
        let z3 = t0.double().double().double();
        let t1 = self.y.mul(&self.z);
        let t2 = times_b3(&self.z.square());
        let x3 = t2.mul(&z3);
        let y3 = t0.add(&t2);
        let z3 = t1.mul(&z3);
        let t2 = t2.double().add(&t2);
        let t0 = t0.sub(&t2);
        let y3 = t0.mul(&y3).add(&x3);
        let x3 = t0.mul(&self.x.mul(&self.y)).double();
        Projective { x: x3, y: y3, z: z3 }
    }

    /// `a` where mask is all ones, `b` where it is 0.
    #[inline(always)]
    pub fn select(mask: u64, a: &Projective, b: &Projective) -> Projective {
        Projective { x: Fp::select(mask, &a.x, &b.x), y: Fp::select(mask, &a.y, &b.y), z: Fp::select(mask, &a.z, &b.z) }
    }

    /// −P where mask is all ones, P where it is 0, without a branch.
    #[inline(always)]
    pub fn negate_if(&self, mask: u64) -> Projective {
        Projective { x: self.x, y: Fp::select(mask, &self.y.neg(), &self.y), z: self.z }
    }

    /// Affine form with a constant-time (Fermat) inversion and no branch: infinity (Z = 0) inverts to 0, so x and y
    /// come out 0, its 64-byte encoding.
    pub fn to_affine_secret(&self) -> Affine {
        let zi = self.z.invert();
        Affine { x: self.x.mul(&zi), y: self.y.mul(&zi), infinity: self.z.zero_mask() != 0 }
    }
}
