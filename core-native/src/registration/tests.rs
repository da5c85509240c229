use super::{advance, grind, write_point_text, Grind, POINT_TEXT};
use crate::bn254::hash_to_point::generators;
use crate::bn254::mul::{mul_secret, mul_var};
use crate::bn254::point::Affine;
use crate::bn254::scalar::scalar_from_be;
use crate::hash::keccak256;

fn template() -> Vec<u8> {
    let mut encoded = vec![0x5a; 40];
    encoded.extend_from_slice(&[0u8; 64]);
    encoded
}

fn task<'a>(g: &'a Affine, template: &'a [u8], pow_bits: u32, attempts: u64) -> Grind<'a> {
    Grind { g, secret_key: &[7u8; 32], nonce: &[9u8; 32], template, pow_bits, attempts }
}

#[test]
fn the_found_signature_verifies_and_its_txid_has_the_bits() {
    let g = generators(b"UMBRA")[0];
    let template = template();
    let mut out = [0u8; 64];
    assert!(grind(&task(&g, &template, 8, 1 << 16), &mut out).unwrap());
    let mut encoded = template.clone();
    encoded[40..].copy_from_slice(&out);
    assert_eq!(keccak256(&encoded)[0], 0, "8 leading zero bits");
    // s·G − c·Y = T and c = Hs(str(Y) ‖ str(T)).
    let (c, s) = (scalar_from_be(&out[..32]), scalar_from_be(&out[32..]));
    let y = mul_secret(&g, &scalar_from_be(&[7u8; 32]));
    let t = mul_var(&g, &s).add(&mul_var(&y.neg(), &c)).to_affine();
    let mut text = [0u8; 2 * POINT_TEXT];
    write_point_text(&y, &mut text[..POINT_TEXT]);
    write_point_text(&t, &mut text[POINT_TEXT..]);
    assert_eq!(scalar_from_be(&keccak256(&text)), c);
}

#[test]
fn it_gives_up_after_the_attempts_it_was_given() {
    let g = generators(b"UMBRA")[0];
    let template = template();
    let mut out = [0u8; 64];
    assert!(!grind(&task(&g, &template, 200, 3000), &mut out).unwrap());
    assert_eq!(out, [0u8; 64], "out is untouched");
}

#[test]
fn it_is_deterministic() {
    let g = generators(b"UMBRA")[0];
    let template = template();
    let (mut a, mut b) = ([0u8; 64], [0u8; 64]);
    assert!(grind(&task(&g, &template, 0, 1), &mut a).unwrap());
    assert!(grind(&task(&g, &template, 0, 1), &mut b).unwrap());
    assert_eq!(a, b);
}

#[test]
fn bad_arguments_are_refused() {
    let g = generators(b"UMBRA")[0];
    let mut out = [0u8; 64];
    assert!(grind(&task(&g, &[0u8; 10], 0, 1), &mut out).unwrap_err().contains("at least 64 bytes"));
    assert!(grind(&task(&g, &template(), 257, 1), &mut out).unwrap_err().contains("at most 256"));
    assert!(grind(&task(&g, &template(), 0, 1), &mut [0u8; 3]).unwrap_err().contains("64 bytes"));
}

#[test]
fn strands_advance_like_the_general_addition_even_at_infinity_and_at_plus_minus_step() {
    let g = generators(b"UMBRA")[0];
    let step = mul_var(&g, &[1024, 0, 0, 0]).to_affine();
    let mut strands: Vec<Affine> = (1..6).map(|i| mul_var(&g, &[i * 7919, 0, 0, 0]).to_affine()).collect();
    strands.extend([Affine::INFINITY, step, step.neg()]);
    let expected: Vec<Affine> = strands.iter().map(|p| p.to_jacobian().add_affine(&step).to_affine()).collect();
    advance(&mut strands, &step, &mut Vec::new());
    assert_eq!(strands, expected);
}
