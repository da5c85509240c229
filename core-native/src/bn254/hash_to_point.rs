//! HashToPoint by try-and-increment (docs/cryptography.md § HashToPoint) and the per-domain generator set (§ Generators).

use super::fp::Fp;
use super::point::{curve_rhs, Affine, Jacobian};
use super::scalar::scalar_from_be;
use crate::hash::keccak256;

/// x = Keccak-256(data) mod n (the group order, as the protocol does; n < p so x is a field element), then the first x, x+1, … with x³ + 3 a
/// square; y is that square's root β^((p+1)/4) exactly as computed.
pub fn hash_to_point(data: &[u8]) -> Affine {
    let mut x = Fp::from_canonical(scalar_from_be(&keccak256(data)));
    loop {
        if let Some(y) = curve_rhs(&x).sqrt() {
            return Affine { x, y, infinity: false };
        }
        x = x.add(&Fp::ONE);
    }
}

pub const GENERATOR_COUNT: usize = 128;

/// G, H, Gs[0..128], Hs[0..128] and GSUM = Σ Gs for a domain string, in that order.
pub fn generators(domain: &[u8]) -> Vec<Affine> {
    let with = |suffix: &[u8], index: Option<usize>| {
        let mut input = domain.to_vec();
        input.extend_from_slice(suffix);
        if let Some(i) = index {
            let mut be = [0u8; 32];
            be[24..].copy_from_slice(&(i as u64).to_be_bytes());
            input.extend_from_slice(&be);
        }
        hash_to_point(&input)
    };
    let mut out = vec![with(b"G", None), with(b"H", None)];
    out.extend((0..GENERATOR_COUNT).map(|i| with(b"G", Some(i))));
    out.extend((0..GENERATOR_COUNT).map(|i| with(b"H", Some(i))));
    let gsum = out[2..2 + GENERATOR_COUNT].iter().fold(Jacobian::INFINITY, |acc, g| acc.add_affine(g));
    out.push(gsum.to_affine());
    out
}
