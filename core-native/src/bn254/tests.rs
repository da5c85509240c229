use super::fp::Fp;
use super::hash_to_point::{generators, hash_to_point};
use super::mul::{fixed_base_table, msm, msm_table, msm_with_table, mul_fixed, mul_secret, mul_var};
use super::point::{add_to_compressed, Affine, Jacobian};
use super::projective::Projective;
use super::scalar::{scalar_from_be, scalar_from_be_ct, N};

fn compressed_hex(p: &Affine) -> String {
    let mut out = [0u8; 33];
    p.compress(&mut out).unwrap();
    out.iter().map(|b| format!("{b:02x}")).collect()
}

fn scalar(v: u64) -> [u64; 4] {
    [v, 0, 0, 0]
}

/// A deterministic pseudo-random 256-bit value (xorshift), reduced mod n.
fn pseudo_scalar(seed: &mut u64) -> [u64; 4] {
    let mut bytes = [0u8; 32];
    for b in bytes.iter_mut() {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *b = *seed as u8;
    }
    scalar_from_be(&bytes)
}

/// k·P by plain double-and-add over the bits of k: slow and obviously right, the reference for the fast methods.
pub(super) fn double_and_add(p: &Affine, k: &[u64; 4]) -> Jacobian {
    let mut acc = Jacobian::INFINITY;
    for bit in (0..256).rev() {
        acc = acc.double();
        if (k[bit / 64] >> (bit % 64)) & 1 == 1 {
            acc = acc.add_affine(p);
        }
    }
    acc
}

#[test]
fn generator_vectors() {
    let g = generators(b"DERO");
    assert_eq!(compressed_hex(&g[0]), "02eacfbf92b94015c9b0b3d901dae37ec68f74dea7e4484c76d505aade4ad7c001");
    assert_eq!(compressed_hex(&g[1]), "268a955ce9d9444dbacc12db3dd1d51cca17ab9d6469c10899cd89c8665d25aa00");
    assert_eq!(compressed_hex(&g[2]), "08ed9cf63e34481c0c24351e71c0f119e1e182781fb14ead9756713b926be41200");
    assert_eq!(compressed_hex(&g[2 + 128 + 127]), "1ae383ab3129745a7e51a5d49a057dfa966dc341dff094c1fe7a3c4f57b330bd01");
    assert_eq!(compressed_hex(&g[258]), "056c421969716ea9d72b534e44f80e51bddd40aa58d4d944463c545f1421f71401");
    assert_eq!(
        compressed_hex(&hash_to_point(b"")),
        "04410c360230a295b13d66d8d6c1a24c44311531e39c64f66c7301b49d85a46d01"
    );
    assert_eq!(
        compressed_hex(&hash_to_point(b"abc")),
        "1d9f1708091409260f8435f1a5477e0a989dfe9ac0ab2fa5a862fffbb12d6c4500"
    );
    let two_g = mul_var(&g[0], &scalar(2)).to_affine();
    assert_eq!(compressed_hex(&two_g), "1723c9b5c0c573e9d202fea0243d5ffa5ca5e1adcfd50d0c0d53c48e1f190e0b00");
    assert_eq!(
        compressed_hex(&mul_var(&g[0], &scalar(12345)).to_affine()),
        "2a660db159710d0c38cfaf3112374ed3e088f36769af923bcb56a0a273b7b26300"
    );
}

#[test]
fn compression_round_trip_and_strictness() {
    let g = hash_to_point(b"DEROG");
    let mut c = [0u8; 33];
    g.compress(&mut c).unwrap();
    assert_eq!(Affine::decompress(&c).unwrap(), g);
    assert_eq!(
        Affine::decompress(&{
            let mut n = c;
            n[32] ^= 1;
            n
        })
        .unwrap(),
        g.neg()
    );
    assert!(Affine::decompress(&{
        let mut n = c;
        n[32] = 7;
        n
    })
    .is_err());
    assert!(Affine::decompress(&[0u8; 33]).is_err());
    assert!(Affine::decompress(&[0xffu8; 33]).is_err());
    assert!(Affine::INFINITY.compress(&mut c).is_err());
}

#[test]
fn sums_onto_compressed_points_match_one_by_one() {
    let g = hash_to_point(b"DEROG");
    let mut seed = 0x0bad_cafe_f00d_1234u64;
    let (mut compressed, mut points, mut expected) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..9 {
        let a = mul_var(&g, &pseudo_scalar(&mut seed)).to_affine();
        let b = mul_var(&g, &pseudo_scalar(&mut seed)).to_affine();
        let mut c = [0u8; 33];
        a.compress(&mut c).unwrap();
        compressed.extend_from_slice(&c);
        let mut p = [0u8; 64];
        b.to_bytes(&mut p);
        points.extend_from_slice(&p);
        a.to_jacobian().add_affine(&b).to_affine().compress(&mut c).unwrap();
        expected.extend_from_slice(&c);
    }
    assert_eq!(add_to_compressed(&compressed, &points).unwrap(), expected);
    assert_eq!(add_to_compressed(&[], &[]).unwrap(), Vec::<u8>::new());
    assert!(add_to_compressed(&compressed, &points[..64]).is_err(), "lengths that do not pair up");
    let mut bad = compressed.clone();
    bad[32] = 7;
    assert!(add_to_compressed(&bad, &points).unwrap_err().starts_with("compressed point 0:"));
    // a + (−a) is the point at infinity, which has no compressed form.
    let mut negated = [0u8; 64];
    Affine::decompress(&compressed[..33]).unwrap().neg().to_bytes(&mut negated);
    assert!(add_to_compressed(&compressed[..33], &negated).unwrap_err().starts_with("sum 0:"));
}

#[test]
fn multiplications_agree() {
    let g = hash_to_point(b"DEROG");
    let table = fixed_base_table(&g);
    let mut seed = 0x1234_5678_9abc_def0u64;
    for _ in 0..40 {
        let k = pseudo_scalar(&mut seed);
        let expected = double_and_add(&g, &k).to_affine();
        assert_eq!(mul_var(&g, &k).to_affine(), expected);
        assert_eq!(mul_secret(&g, &k), expected);
        assert_eq!(mul_fixed(|i| table[i], &k).to_affine(), expected);
    }
    // n·G = ∞, (n−1)·G = −G, 0·G = ∞.
    assert!(mul_var(&g, &N).is_infinity());
    let n_minus_1 = [N[0] - 1, N[1], N[2], N[3]];
    assert_eq!(mul_var(&g, &n_minus_1).to_affine(), g.neg());
    assert_eq!(mul_secret(&g, &n_minus_1), g.neg());
    assert_eq!(mul_secret(&g, &scalar(0)), Affine::INFINITY);
    assert!(mul_fixed(|i| table[i], &scalar(0)).is_infinity());
}

#[test]
fn constant_time_path_equals_variable_time_path() {
    let g = hash_to_point(b"constant time");
    let mut scalars = vec![[0u8; 32], [0xff; 32]];
    for small in [1u64, 2, 3, 15, 16, 17, 255, 256, 0xffff_ffff] {
        let mut b = [0u8; 32];
        b[24..].copy_from_slice(&small.to_be_bytes());
        scalars.push(b);
    }
    let mut n_bytes = [0u8; 32];
    super::fp::limbs_to_be(&N, &mut n_bytes);
    for delta in [1u8, 2] {
        let mut b = n_bytes;
        b[31] = b[31].wrapping_sub(delta); // n − 1, and n + 254 (reduced first)
        scalars.push(b);
    }
    scalars.push(n_bytes); // n ≡ 0
    let mut high = [0u8; 32];
    high[0] = 0x80; // 2^255 (≥ n: reduced first)
    scalars.push(high);
    high[0] = 0x30; // a single high bit below n, then zero windows all the way down
    scalars.push(high);
    let mut seed = 0x0bad_cafe_u64;
    for _ in 0..60 {
        let k = pseudo_scalar(&mut seed);
        let mut b = [0u8; 32];
        super::fp::limbs_to_be(&k, &mut b);
        scalars.push(b);
    }
    for bytes in &scalars {
        let (k, k_ct) = (scalar_from_be(bytes), scalar_from_be_ct(bytes));
        assert_eq!(k, k_ct, "reduction of {bytes:?}");
        let expected = double_and_add(&g, &k).to_affine();
        let (mut a, mut b, mut c) = ([0u8; 64], [0u8; 64], [0u8; 64]);
        expected.to_bytes(&mut a);
        mul_var(&g, &k).to_affine().to_bytes(&mut b);
        mul_secret(&g, &k_ct).to_bytes(&mut c);
        assert_eq!(a, b, "variable time, scalar {bytes:?}");
        assert_eq!(a, c, "constant time, scalar {bytes:?}");
    }
}

#[test]
fn msm_matches_sum_of_products() {
    let mut seed = 42u64;
    // Straus (one and two threads) and Pippenger, with zero scalars, infinity, repeated and opposite points, and the
    // largest scalar n − 1.
    for n in [0usize, 1, 2, 7, 63, 64, 100, 127, 128, 300, 1024] {
        let mut points: Vec<Affine> = (0..n).map(|i| hash_to_point(&(i as u64).to_be_bytes())).collect();
        let mut scalars: Vec<[u64; 4]> = (0..n).map(|_| pseudo_scalar(&mut seed)).collect();
        if n > 6 {
            scalars[1] = [0; 4];
            points[2] = Affine::INFINITY;
            points[3] = points[4];
            scalars[3] = scalars[4];
            points[5] = points[4].neg();
            scalars[6] = [N[0] - 1, N[1], N[2], N[3]];
        }
        let expected = points.iter().zip(&scalars).fold(Jacobian::INFINITY, |acc, (p, k)| acc.add(&mul_var(p, k)));
        assert_eq!(msm(&points, &scalars).to_affine(), expected.to_affine(), "n = {n}");
    }
}

#[test]
fn table_msm_matches_msm() {
    let mut seed = 7u64;
    // One thread and two, with zero scalars, infinity, repeated and opposite bases, and the largest scalar n − 1.
    for n in [0usize, 1, 6, 40, 129] {
        let mut bases: Vec<Affine> = (0..n).map(|i| hash_to_point(&(i as u64 + 1000).to_be_bytes())).collect();
        let mut scalars: Vec<[u64; 4]> = (0..n).map(|_| pseudo_scalar(&mut seed)).collect();
        if n > 5 {
            scalars[1] = [0; 4];
            bases[2] = Affine::INFINITY;
            bases[3] = bases[4];
            scalars[3] = scalars[4];
            bases[5] = bases[4].neg();
            scalars[0] = [N[0] - 1, N[1], N[2], N[3]];
        }
        let table = msm_table(&bases);
        assert_eq!(msm_with_table(|i| table[i], &scalars).to_affine(), msm(&bases, &scalars).to_affine(), "n = {n}");
    }
}

#[test]
fn group_law_edge_cases() {
    let g = hash_to_point(b"x").to_jacobian();
    let g_aff = g.to_affine();
    assert!(g.add(&g.neg()).is_infinity());
    assert_eq!(g.add(&g).to_affine(), g.double().to_affine());
    assert_eq!(g.add_affine(&g_aff).to_affine(), g.double().to_affine());
    assert!(g.add_affine(&g_aff.neg()).is_infinity());
    assert_eq!(Fp::from_u64(5).mul(&Fp::from_u64(3)), Fp::from_u64(15));
}

#[test]
fn complete_projective_formulas() {
    // The one addition formula covers P + ∞, ∞ + P, P + P, P + (−P) and ∞ + ∞; doubling covers ∞.
    let p_aff = hash_to_point(b"complete");
    let q_aff = hash_to_point(b"formulas");
    let (p, q, inf) = (Projective::from_affine(&p_aff), Projective::from_affine(&q_aff), Projective::INFINITY);
    let twice = p_aff.to_jacobian().double().to_affine();
    assert_eq!(p.add(&inf).to_affine_secret(), p_aff);
    assert_eq!(inf.add(&p).to_affine_secret(), p_aff);
    assert_eq!(p.add(&p).to_affine_secret(), twice);
    assert_eq!(p.double().to_affine_secret(), twice);
    assert_eq!(p.add(&Projective::from_affine(&p_aff.neg())).to_affine_secret(), Affine::INFINITY);
    assert_eq!(inf.add(&inf).to_affine_secret(), Affine::INFINITY);
    assert_eq!(inf.double().to_affine_secret(), Affine::INFINITY);
    assert_eq!(p.add(&q).to_affine_secret(), p_aff.to_jacobian().add_affine(&q_aff).to_affine());
    assert_eq!(
        p.add(&q).negate_if(u64::MAX).to_affine_secret(),
        p_aff.to_jacobian().add_affine(&q_aff).to_affine().neg()
    );
    // Sums of non-normalised inputs (Z ≠ 1).
    let (p2, q3) = (p.double(), q.double().add(&q));
    let expected = p_aff.to_jacobian().double().add(&q_aff.to_jacobian().double().add_affine(&q_aff));
    assert_eq!(p2.add(&q3).to_affine_secret(), expected.to_affine());
}

/// `cargo test --release bn254::tests::speed -- --ignored --nocapture`: fastest time of the hot operations.
#[test]
#[ignore]
fn speed() {
    use std::time::Instant;
    fn median(mut f: impl FnMut(), reps: usize) -> f64 {
        let mut t: Vec<f64> = (0..reps)
            .map(|_| {
                let s = Instant::now();
                f();
                s.elapsed().as_secs_f64() * 1e6
            })
            .collect();
        t.sort_by(|a, b| a.partial_cmp(b).unwrap());
        t[0]
    }
    let mut seed = 5u64;
    let p = hash_to_point(b"speed");
    let a = p.x;
    let b = p.y;
    let mut x = a;
    let muls = median(
        || {
            for _ in 0..1000 {
                x = std::hint::black_box(x.mul(&b));
            }
        },
        200,
    );
    eprintln!("fp mul: {:.1} ns", muls);
    let sq = median(
        || {
            for _ in 0..1000 {
                x = std::hint::black_box(x.square());
            }
        },
        200,
    );
    eprintln!("fp square: {:.1} ns", sq);
    eprintln!(
        "fp invert_vartime: {:.2} us",
        median(
            || {
                let _ = std::hint::black_box(x.invert_vartime());
            },
            500
        )
    );
    eprintln!(
        "fp invert: {:.2} us",
        median(
            || {
                let _ = std::hint::black_box(x.invert());
            },
            500
        )
    );
    let jp = p.to_jacobian().double();
    eprintln!(
        "jacobian double: {:.3} us",
        median(
            || {
                let _ = std::hint::black_box(jp.double());
            },
            2000
        )
    );
    eprintln!(
        "jacobian add_affine: {:.3} us",
        median(
            || {
                let _ = std::hint::black_box(jp.add_affine(&p));
            },
            2000
        )
    );
    eprintln!(
        "jacobian add: {:.3} us",
        median(
            || {
                let _ = std::hint::black_box(jp.add(&jp.double()));
            },
            2000
        )
    );
    let k = pseudo_scalar(&mut seed);
    eprintln!(
        "mul_var: {:.2} us",
        median(
            || {
                let _ = std::hint::black_box(mul_var(&p, &k));
            },
            500
        )
    );
    eprintln!(
        "mul_var+affine: {:.2} us",
        median(
            || {
                let _ = std::hint::black_box(mul_var(&p, &k).to_affine());
            },
            500
        )
    );
    eprintln!(
        "mul_secret: {:.2} us",
        median(
            || {
                let _ = std::hint::black_box(mul_secret(&p, &k));
            },
            500
        )
    );
    let table = fixed_base_table(&p);
    eprintln!(
        "mul_fixed: {:.2} us",
        median(
            || {
                let _ = std::hint::black_box(mul_fixed(|i| table[i], &k));
            },
            500
        )
    );
    let points: Vec<Affine> = (0..1024u32).map(|i| hash_to_point(&i.to_be_bytes())).collect();
    let scalars: Vec<[u64; 4]> = (0..1024).map(|_| pseudo_scalar(&mut seed)).collect();
    eprintln!(
        "msm 64: {:.1} us",
        median(
            || {
                let _ = std::hint::black_box(msm(&points[..64], &scalars[..64]));
            },
            50
        )
    );
    let table = msm_table(&points[..257]);
    eprintln!(
        "table msm 129 of 257: {:.1} us",
        median(
            || {
                let _ = std::hint::black_box(msm_with_table(|i| table[i], &scalars[..129]));
            },
            20
        )
    );
    eprintln!(
        "msm 129: {:.1} us",
        median(
            || {
                let _ = std::hint::black_box(msm(&points[..129], &scalars[..129]));
            },
            20
        )
    );
    eprintln!(
        "msm 1024: {:.1} us",
        median(
            || {
                let _ = std::hint::black_box(msm(&points, &scalars));
            },
            10
        )
    );
}
