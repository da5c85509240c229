//! G1 points of BN254 (y² = x³ + 3): affine and Jacobian forms, the group law, and the byte encodings
//! (64-byte x‖y with infinity as zeros; strict 33-byte compression x‖flag, flag 1 = the larger root).

use super::fp::Fp;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Affine {
    pub x: Fp,
    pub y: Fp,
    pub infinity: bool,
}

/// Jacobian coordinates: (X/Z², Y/Z³); Z = 0 is the point at infinity.
#[derive(Clone, Copy, Debug)]
pub struct Jacobian {
    pub x: Fp,
    pub y: Fp,
    pub z: Fp,
}

fn curve_b() -> Fp {
    Fp::from_u64(3)
}

/// x³ + 3.
pub fn curve_rhs(x: &Fp) -> Fp {
    x.square().mul(x).add(&curve_b())
}

impl Affine {
    pub const INFINITY: Affine = Affine { x: Fp::ZERO, y: Fp::ZERO, infinity: true };

    pub fn is_on_curve(&self) -> bool {
        self.infinity || self.y.square() == curve_rhs(&self.x)
    }

    pub fn to_jacobian(&self) -> Jacobian {
        if self.infinity {
            Jacobian::INFINITY
        } else {
            Jacobian { x: self.x, y: self.y, z: Fp::ONE }
        }
    }

    pub fn neg(&self) -> Affine {
        Affine { x: self.x, y: self.y.neg(), infinity: self.infinity }
    }

    /// Strict decoding of 64 bytes: infinity is all zeros; otherwise both coordinates < p and on the curve.
    pub fn from_bytes(bytes: &[u8]) -> Result<Affine, &'static str> {
        if bytes.len() != 64 {
            return Err("a point must be 64 bytes (x ‖ y)");
        }
        if bytes.iter().all(|&b| b == 0) {
            return Ok(Affine::INFINITY);
        }
        let x = Fp::from_be_bytes(&bytes[..32]).ok_or("point x coordinate is not below the field prime p")?;
        let y = Fp::from_be_bytes(&bytes[32..]).ok_or("point y coordinate is not below the field prime p")?;
        let point = Affine { x, y, infinity: false };
        if !point.is_on_curve() {
            return Err("point is not on the curve");
        }
        Ok(point)
    }

    pub fn to_bytes(&self, out: &mut [u8]) {
        if self.infinity {
            out[..64].fill(0);
        } else {
            self.x.to_be_bytes(&mut out[..32]);
            self.y.to_be_bytes(&mut out[32..64]);
        }
    }

    pub fn compress(&self, out: &mut [u8]) -> Result<(), &'static str> {
        if self.infinity {
            return Err("the point at infinity cannot be compressed");
        }
        self.x.to_be_bytes(&mut out[..32]);
        out[32] = self.y.is_larger_root() as u8;
        Ok(())
    }

    /// Strict decompression: rejects x ≥ p, a flag other than 0/1, and an x with no point on the curve.
    pub fn decompress(bytes: &[u8]) -> Result<Affine, &'static str> {
        if bytes.len() != 33 {
            return Err("a compressed point must be 33 bytes");
        }
        let flag = bytes[32];
        if flag > 1 {
            return Err("compressed point flag must be 0 or 1");
        }
        let x = Fp::from_be_bytes(&bytes[..32]).ok_or("compressed point x is not below the field prime p")?;
        let root = curve_rhs(&x).sqrt().ok_or("compressed point is not on the curve (no y for this x)")?;
        let y = if root.is_larger_root() == (flag == 1) { root } else { root.neg() };
        Ok(Affine { x, y, infinity: false })
    }
}

impl Jacobian {
    pub const INFINITY: Jacobian = Jacobian { x: Fp::ONE, y: Fp::ONE, z: Fp::ZERO };

    #[inline(always)]
    pub fn is_infinity(&self) -> bool {
        self.z.is_zero()
    }

    /// 2·P (dbl-2009-l, a = 0). Infinity stays infinity (Z stays 0).
    #[inline]
    pub fn double(&self) -> Jacobian {
        let a = self.x.square();
        let b = self.y.square();
        let c = b.square();
        let d = self.x.add(&b).square().sub(&a).sub(&c).double();
        let e = a.double().add(&a);
        let f = e.square();
        let x3 = f.sub(&d.double());
        let y3 = e.mul(&d.sub(&x3)).sub(&c.double().double().double());
        let z3 = self.y.mul(&self.z).double();
        Jacobian { x: x3, y: y3, z: z3 }
    }

    /// The generic sum (add-2007-bl) and whether the inputs were equal (H = 0 and r = 0, where the formula fails).
    #[inline(always)]
    fn add_formula(&self, other: &Jacobian) -> (Jacobian, bool) {
        let z1z1 = self.z.square();
        let z2z2 = other.z.square();
        let u1 = self.x.mul(&z2z2);
        let u2 = other.x.mul(&z1z1);
        let s1 = self.y.mul(&other.z).mul(&z2z2);
        let s2 = other.y.mul(&self.z).mul(&z1z1);
        let h = u2.sub(&u1);
        let i = h.double().square();
        let j = h.mul(&i);
        let r = s2.sub(&s1).double();
        let v = u1.mul(&i);
        let x3 = r.square().sub(&j).sub(&v.double());
        let y3 = r.mul(&v.sub(&x3)).sub(&s1.mul(&j).double());
        let z3 = self.z.add(&other.z).square().sub(&z1z1).sub(&z2z2).mul(&h);
        (Jacobian { x: x3, y: y3, z: z3 }, h.is_zero() && r.is_zero())
    }

    /// P + Q for public data (branches on the special cases).
    pub fn add(&self, other: &Jacobian) -> Jacobian {
        if self.is_infinity() {
            return *other;
        }
        if other.is_infinity() {
            return *self;
        }
        let (sum, equal) = self.add_formula(other);
        if equal {
            self.double()
        } else {
            sum
        }
    }

    /// P + Q with Q affine (madd-2007-bl), for public data.
    #[inline]
    pub fn add_affine(&self, other: &Affine) -> Jacobian {
        if other.infinity {
            return *self;
        }
        if self.is_infinity() {
            return other.to_jacobian();
        }
        let z1z1 = self.z.square();
        let u2 = other.x.mul(&z1z1);
        let s2 = other.y.mul(&self.z).mul(&z1z1);
        let h = u2.sub(&self.x);
        let r = s2.sub(&self.y).double();
        if h.is_zero() {
            return if r.is_zero() { self.double() } else { Jacobian::INFINITY };
        }
        let hh = h.square();
        let i = hh.double().double();
        let j = h.mul(&i);
        let v = self.x.mul(&i);
        let x3 = r.square().sub(&j).sub(&v.double());
        let y3 = r.mul(&v.sub(&x3)).sub(&self.y.mul(&j).double());
        let z3 = self.z.add(&h).square().sub(&z1z1).sub(&hh);
        Jacobian { x: x3, y: y3, z: z3 }
    }

    pub fn neg(&self) -> Jacobian {
        Jacobian { x: self.x, y: self.y.neg(), z: self.z }
    }

    /// Affine form, variable time (public data).
    pub fn to_affine(&self) -> Affine {
        if self.is_infinity() {
            return Affine::INFINITY;
        }
        let zi = self.z.invert_vartime();
        let zi2 = zi.square();
        Affine { x: self.x.mul(&zi2), y: self.y.mul(&zi2).mul(&zi), infinity: false }
    }
}

/// Bytes of a compressed point, and of an affine point.
const COMPRESSED_BYTES: usize = 33;
const POINT_BYTES: usize = 64;

/// Each compressed point of `compressed` (n·33 bytes) plus the point beside it in `points` (n·64 bytes), compressed
/// again (n·33 bytes): the sums made affine with one field inversion for all. A sum at infinity cannot be compressed.
pub fn add_to_compressed(compressed: &[u8], points: &[u8]) -> Result<Vec<u8>, String> {
    let n = compressed.len() / COMPRESSED_BYTES;
    if !compressed.len().is_multiple_of(COMPRESSED_BYTES) || points.len() != n * POINT_BYTES {
        return Err(format!(
            "expected n·33 bytes of compressed points and n·64 bytes of points, got {} and {}",
            compressed.len(),
            points.len()
        ));
    }
    let sums = compressed
        .chunks_exact(COMPRESSED_BYTES)
        .zip(points.chunks_exact(POINT_BYTES))
        .enumerate()
        .map(|(i, (a, b))| {
            let a = Affine::decompress(a).map_err(|e| format!("compressed point {i}: {e}"))?;
            let b = Affine::from_bytes(b).map_err(|e| format!("point {i}: {e}"))?;
            Ok(a.to_jacobian().add_affine(&b))
        })
        .collect::<Result<Vec<Jacobian>, String>>()?;
    let mut out = vec![0u8; n * COMPRESSED_BYTES];
    for (i, (sum, chunk)) in batch_normalize(&sums).iter().zip(out.chunks_exact_mut(COMPRESSED_BYTES)).enumerate() {
        sum.compress(chunk).map_err(|e| format!("sum {i}: {e}"))?;
    }
    Ok(out)
}

/// Converts many Jacobian points to affine with a single field inversion.
pub fn batch_normalize(points: &[Jacobian]) -> Vec<Affine> {
    let mut zs: Vec<Fp> = points.iter().map(|p| p.z).collect();
    super::fp::batch_invert(&mut zs);
    points
        .iter()
        .zip(zs.iter())
        .map(|(p, zi)| {
            if p.is_infinity() {
                Affine::INFINITY
            } else {
                let zi2 = zi.square();
                Affine { x: p.x.mul(&zi2), y: p.y.mul(&zi2).mul(zi), infinity: false }
            }
        })
        .collect()
}
