//! Registration proof of work (docs/protocol.md § Transactions, "Registration"): the whole grind in one call.
//! Attempt i signs with nonce k + i, whose commitment T + i·G comes from affine strands advanced together (one
//! field inversion per batch); the challenge c = Hs(str(Y) ‖ str(T)) resumes from the absorbed first block of
//! str(Y); s = k + c·sk mod n is one Montgomery product; the txid hashes the transaction's encoding with c ‖ s
//! written in its last 64 bytes.

use crate::bn254::fp::{add_mod, batch_invert, limbs_to_be, mont_mul, Fp};
use crate::bn254::mul::{mul_secret, mul_var};
use crate::bn254::point::{batch_normalize, Affine, Jacobian};
use crate::bn254::scalar::{scalar_from_be, scalar_from_be_ct, N};
use crate::hash::Keccak256Prefix;

#[cfg(not(test))]
mod exports;
#[cfg(not(test))]
pub use exports::register;

/// Strands advanced together: the batch inversion's share per point is then a few multiplications.
const BATCH: usize = 1024;
/// "bn256.G1(" + 64 hex digits + ", " + 64 hex digits + ")": Go's debug string of a point, as the challenge hashes it.
const POINT_TEXT: usize = 9 + 64 + 2 + 64 + 1;
const HEX: &[u8; 16] = b"0123456789abcdef";

/// −m⁻¹ mod 2^64 for odd m (Newton's iteration doubles the correct low bits each step: 1, 2, 4, …, 64).
const fn neg_inverse_64(m0: u64) -> u64 {
    let mut inv = 1u64;
    let mut i = 0;
    while i < 6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(inv)));
        i += 1;
    }
    inv.wrapping_neg()
}
const N_INV: u64 = neg_inverse_64(N[0]);

fn write_hex(bytes: &[u8], out: &mut [u8]) {
    for (byte, pair) in bytes.iter().zip(out.chunks_exact_mut(2)) {
        pair[0] = HEX[(byte >> 4) as usize];
        pair[1] = HEX[(byte & 15) as usize];
    }
}

/// Writes str(P) = "bn256.G1(<x hex>, <y hex>)" into `out` (POINT_TEXT bytes).
fn write_point_text(point: &Affine, out: &mut [u8]) {
    let mut bytes = [0u8; 64];
    point.to_bytes(&mut bytes);
    out[..9].copy_from_slice(b"bn256.G1(");
    write_hex(&bytes[..32], &mut out[9..73]);
    out[73..75].copy_from_slice(b", ");
    write_hex(&bytes[32..], &mut out[75..139]);
    out[139] = b')';
}

fn leading_zero_bits(hash: &[u8; 32]) -> u32 {
    let mut bits = 0;
    for &byte in hash {
        if byte != 0 {
            return bits + byte.leading_zeros();
        }
        bits += 8;
    }
    bits
}

/// What one grind is asked to do.
pub struct Grind<'a> {
    /// The generator G (the key and nonce base).
    pub g: &'a Affine,
    /// The secret key (32 bytes big-endian, used mod n).
    pub secret_key: &'a [u8],
    /// The first nonce k (32 bytes big-endian, used mod n); attempt i uses k + i.
    pub nonce: &'a [u8],
    /// The registration's encoding, ending with the 64 bytes c ‖ s that each attempt rewrites.
    pub template: &'a [u8],
    pub pow_bits: u32,
    pub attempts: u64,
}

/// Tries nonces k, k + 1, … (at most `attempts`); on the first whose txid has `pow_bits` leading zero bits, writes
/// that signature's c ‖ s into `out` (64 bytes) and returns true.
pub fn grind(task: &Grind, out: &mut [u8]) -> Result<bool, String> {
    if task.template.len() < 64 {
        return Err(format!("the registration encoding must be at least 64 bytes, got {}", task.template.len()));
    }
    if task.g.infinity {
        return Err("G must not be the point at infinity".to_string());
    }
    if task.pow_bits > 256 {
        return Err(format!("proof-of-work bits must be at most 256, got {}", task.pow_bits));
    }
    if out.len() != 64 {
        return Err(format!("the output must be 64 bytes, got {}", out.len()));
    }
    let sk = scalar_from_be_ct(task.secret_key);
    let y = mul_secret(task.g, &sk);
    // sk·2^256 mod n (256 doublings), so that one Montgomery product gives c·sk mod n.
    let mut sk_montgomery = sk;
    for _ in 0..256 {
        sk_montgomery = add_mod(&sk_montgomery, &sk_montgomery, &N);
    }
    let mut k = scalar_from_be_ct(task.nonce);
    // The walk from T is variable time: T is as public as the signature that reveals it (T = s·G − c·Y), and it
    // comes out of the constant-time multiplication already affine (no nonce-dependent Z).
    let mut commitment: Jacobian = mul_secret(task.g, &k).to_jacobian();

    let mut text = [0u8; 2 * POINT_TEXT];
    write_point_text(&y, &mut text[..POINT_TEXT]);
    let challenge_prefix = Keccak256Prefix::new(&text[..POINT_TEXT]);
    let mut encoded = task.template.to_vec();
    let c_at = encoded.len() - 64;
    let txid_prefix = Keccak256Prefix::new(&encoded[..c_at]);

    if task.attempts == 0 {
        return Ok(false);
    }
    // Strand j starts at T + j·G and moves by BATCH·G each round: round r holds the commitments of nonces
    // k + r·BATCH + j, in nonce order.
    let strand_count = task.attempts.min(BATCH as u64) as usize;
    let mut walk = Vec::with_capacity(strand_count);
    for _ in 0..strand_count {
        walk.push(commitment);
        commitment = commitment.add_affine(task.g);
    }
    let mut strands = batch_normalize(&walk);
    let step = mul_var(task.g, &[BATCH as u64, 0, 0, 0]).to_affine();
    let mut scratch = Vec::with_capacity(strand_count);
    let one = [1, 0, 0, 0];
    let mut left = task.attempts;
    loop {
        let count = left.min(strand_count as u64) as usize;
        for t in &strands[..count] {
            write_point_text(t, &mut text[POINT_TEXT..]);
            let c = scalar_from_be(&challenge_prefix.hash(&text));
            let s = add_mod(&k, &mont_mul(&c, &sk_montgomery, &N, N_INV), &N);
            limbs_to_be(&c, &mut encoded[c_at..c_at + 32]);
            limbs_to_be(&s, &mut encoded[c_at + 32..]);
            if leading_zero_bits(&txid_prefix.hash(&encoded)) >= task.pow_bits {
                out.copy_from_slice(&encoded[c_at..]);
                return Ok(true);
            }
            k = add_mod(&k, &one, &N);
        }
        left -= count as u64;
        if left == 0 {
            return Ok(false);
        }
        advance(&mut strands, &step, &mut scratch);
    }
}

/// Adds `step` to every strand in affine coordinates, sharing one field inversion: about six multiplications a
/// point, against eighteen for a Jacobian addition made affine. A strand at infinity or at ±step (never seen in
/// practice: the nonce is random) takes the general addition.
fn advance(strands: &mut [Affine], step: &Affine, scratch: &mut Vec<Fp>) {
    scratch.clear();
    scratch.extend(strands.iter().map(|p| step.x.sub(&p.x)));
    batch_invert(scratch);
    for (p, inverse) in strands.iter_mut().zip(scratch.iter()) {
        *p = if p.infinity || inverse.is_zero() {
            p.to_jacobian().add_affine(step).to_affine()
        } else {
            let lambda = step.y.sub(&p.y).mul(inverse);
            let x = lambda.square().sub(&p.x).sub(&step.x);
            Affine { y: lambda.mul(&p.x.sub(&x)).sub(&p.y), x, infinity: false }
        };
    }
}

#[cfg(test)]
mod tests;
