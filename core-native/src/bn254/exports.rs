//! The curve functions as seen from JavaScript (core-native/ts/native/curve.ts wraps them).

use super::fp::Fp;
use super::hash_to_point::{generators, hash_to_point};
use super::mul::{
    fixed_base_table, msm, msm_table, msm_with_table, mul_fixed, mul_secret, mul_var, FIXED_PER_WINDOW, FIXED_WINDOWS,
    TABLE_WINDOWS,
};
use super::point::{add_to_compressed, batch_normalize, Affine, Jacobian};
use super::scalar::{scalar_from_be, scalar_from_be_ct};
use crate::napi::{Call, Exports, Value};

fn point_arg(call: &Call, index: usize, name: &str) -> Result<Affine, String> {
    let bytes = call.bytes(index, name)?;
    Affine::from_bytes(bytes).map_err(|e| format!("{name}: {e}"))
}

fn scalar_arg(call: &Call, index: usize) -> Result<[u64; 4], String> {
    Ok(scalar_from_be(call.bytes_exact(index, "scalar", 32)?))
}

fn point_out(call: &Call, p: &Affine) -> Result<Value, String> {
    call.buffer_with(64, |out| p.to_bytes(out))
}

fn jacobian_out(call: &Call, p: &Jacobian) -> Result<Value, String> {
    point_out(call, &p.to_affine())
}

fn points_out(call: &Call, points: &[Affine]) -> Result<Value, String> {
    call.buffer_with(points.len() * 64, |out| {
        for (p, chunk) in points.iter().zip(out.chunks_exact_mut(64)) {
            p.to_bytes(chunk);
        }
    })
}

/// Precomputed tables travel as raw Montgomery limbs (x then y, little-endian u64s): no conversion per use.
const TABLE_ENTRY: usize = 64;
const TABLE_BYTES: usize = FIXED_WINDOWS * FIXED_PER_WINDOW * TABLE_ENTRY;

fn read_fp(bytes: &[u8]) -> Fp {
    let mut limbs = [0u64; 4];
    for (limb, chunk) in limbs.iter_mut().zip(bytes.chunks_exact(8)) {
        *limb = u64::from_le_bytes(chunk.try_into().unwrap());
    }
    Fp(limbs)
}

fn write_fp(f: &Fp, out: &mut [u8]) {
    for (limb, chunk) in f.0.iter().zip(out.chunks_exact_mut(8)) {
        chunk.copy_from_slice(&limb.to_le_bytes());
    }
}

fn fixed_base_table_fn(call: &Call) -> Result<Value, String> {
    let p = point_arg(call, 0, "base point")?;
    if p.infinity {
        return Err("a fixed-base table needs a finite base point".into());
    }
    let table = fixed_base_table(&p);
    call.buffer_with(TABLE_BYTES, |out| {
        for (entry, chunk) in table.iter().zip(out.chunks_exact_mut(TABLE_ENTRY)) {
            write_fp(&entry.x, &mut chunk[..32]);
            write_fp(&entry.y, &mut chunk[32..]);
        }
    })
}

fn fixed_base_mul_fn(call: &Call) -> Result<Value, String> {
    let raw = call.bytes_exact(0, "fixed-base table", TABLE_BYTES)?;
    let k = scalar_arg(call, 1)?;
    // Reads only the entries the scalar's nibbles select, straight from the JS buffer.
    let entry = |i: usize| {
        let c = &raw[i * TABLE_ENTRY..(i + 1) * TABLE_ENTRY];
        Affine { x: read_fp(&c[..32]), y: read_fp(&c[32..]), infinity: false }
    };
    jacobian_out(call, &mul_fixed(entry, &k))
}

/// An infinite table entry is stored as (0, 0), which is not on the curve.
fn read_entry(bytes: &[u8]) -> Affine {
    let (x, y) = (read_fp(&bytes[..32]), read_fp(&bytes[32..]));
    Affine { x, y, infinity: x.is_zero() && y.is_zero() }
}

fn msm_table_fn(call: &Call) -> Result<Value, String> {
    let points = call.bytes(0, "points")?;
    if points.len() % 64 != 0 {
        return Err(format!("an msm table needs n·64 bytes of points (got {})", points.len()));
    }
    let bases = points
        .chunks_exact(64)
        .enumerate()
        .map(|(i, c)| Affine::from_bytes(c).map_err(|e| format!("point {i}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let table = msm_table(&bases);
    call.buffer_with(table.len() * TABLE_ENTRY, |out| {
        for (entry, chunk) in table.iter().zip(out.chunks_exact_mut(TABLE_ENTRY)) {
            if !entry.infinity {
                write_fp(&entry.x, &mut chunk[..32]);
                write_fp(&entry.y, &mut chunk[32..]);
            }
        }
    })
}

fn msm_table_run_fn(call: &Call) -> Result<Value, String> {
    let raw = call.bytes(0, "msm table")?;
    let scalars = call.bytes(1, "scalars")?;
    let per_base = TABLE_WINDOWS * TABLE_ENTRY;
    if raw.len() % per_base != 0 || scalars.len() % 32 != 0 || raw.len() / per_base != scalars.len() / 32 {
        return Err(format!(
            "an msm table of n points needs n·32 bytes of scalars (got a {}-byte table and {} bytes of scalars)",
            raw.len(),
            scalars.len()
        ));
    }
    let ks: Vec<[u64; 4]> = scalars.chunks_exact(32).map(scalar_from_be).collect();
    let entry = |i: usize| read_entry(&raw[i * TABLE_ENTRY..(i + 1) * TABLE_ENTRY]);
    jacobian_out(call, &msm_with_table(entry, &ks))
}

fn msm_fn(call: &Call) -> Result<Value, String> {
    let points = call.bytes(0, "points")?;
    let scalars = call.bytes(1, "scalars")?;
    if points.len() % 64 != 0 || scalars.len() % 32 != 0 || points.len() / 64 != scalars.len() / 32 {
        return Err(format!(
            "msm needs n·64 bytes of points and n·32 bytes of scalars (got {} and {})",
            points.len(),
            scalars.len()
        ));
    }
    let affine = points
        .chunks_exact(64)
        .enumerate()
        .map(|(i, c)| Affine::from_bytes(c).map_err(|e| format!("point {i}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let ks: Vec<[u64; 4]> = scalars.chunks_exact(32).map(scalar_from_be).collect();
    jacobian_out(call, &msm(&affine, &ks))
}

/// k·P for a secret k: reduction, multiplication and conversion to affine all without secret-dependent branches.
fn mul_secret_affine(p: &Affine, scalar: &[u8]) -> Affine {
    mul_secret(p, &scalar_from_be_ct(scalar))
}

fn mul_var_affine(p: &Affine, scalar: &[u8]) -> Affine {
    mul_var(p, &scalar_from_be(scalar)).to_affine()
}

/// The most scalars one timing call measures (about half a minute of multiplications).
const TIMINGS_MAX: usize = 1 << 18;

/// For the timing-leak benchmark (bench/crypto.ts): multiplies P by each of n scalars (n·32 bytes) in order and
/// returns n durations in nanoseconds (f64, little-endian), each taken with the monotonic clock around one call of
/// `mul`, so that no JavaScript runs inside a measurement.
fn timings_fn(call: &Call, mul: fn(&Affine, &[u8]) -> Affine) -> Result<Value, String> {
    let p = point_arg(call, 0, "point")?;
    let scalars = call.bytes(1, "scalars")?;
    if scalars.len() % 32 != 0 || scalars.len() / 32 > TIMINGS_MAX {
        return Err(format!("scalars must be n·32 bytes with n ≤ {TIMINGS_MAX}, got {} bytes", scalars.len()));
    }
    let times: Vec<f64> = scalars
        .chunks_exact(32)
        .map(|k| {
            let start = std::time::Instant::now();
            std::hint::black_box(mul(&p, std::hint::black_box(k)));
            start.elapsed().as_nanos() as f64
        })
        .collect();
    call.buffer_with(times.len() * 8, |out| {
        for (t, chunk) in times.iter().zip(out.chunks_exact_mut(8)) {
            chunk.copy_from_slice(&t.to_le_bytes());
        }
    })
}

/// The most points one g1Progression call returns (64 KiB of output per 1024 points).
const PROGRESSION_MAX: u64 = 1 << 16;

/// start, start + step, …, start + (count − 1)·step, all made affine with one field inversion: the cheap way to walk
/// many consecutive multiples of a point (registration grinding steps its Schnorr nonce by one each attempt).
fn progression_fn(call: &Call) -> Result<Value, String> {
    let start = point_arg(call, 0, "start")?;
    let step = point_arg(call, 1, "step")?;
    let count = call.index(2, "count")?;
    if count > PROGRESSION_MAX {
        return Err(format!("count must be an integer from 0 to {PROGRESSION_MAX}, got {count}"));
    }
    let mut points = Vec::with_capacity(count as usize);
    let mut current = start.to_jacobian();
    for _ in 0..count {
        points.push(current);
        current = current.add_affine(&step);
    }
    points_out(call, &batch_normalize(&points))
}

pub fn register(exports: &Exports) -> Result<(), String> {
    exports.function("g1Decompress", |call| {
        let p = Affine::decompress(call.bytes(0, "compressed point")?)?;
        point_out(call, &p)
    })?;
    exports.function("g1Compress", |call| {
        let p = point_arg(call, 0, "point")?;
        let mut out = [0u8; 33];
        p.compress(&mut out)?;
        call.buffer(&out)
    })?;
    exports.function("g1IsValid", |call| call.boolean(Affine::from_bytes(call.bytes(0, "point")?).is_ok()))?;
    exports.function("g1Add", |call| {
        let (a, b) = (point_arg(call, 0, "a")?, point_arg(call, 1, "b")?);
        jacobian_out(call, &a.to_jacobian().add_affine(&b))
    })?;
    exports.function("g1Sub", |call| {
        let (a, b) = (point_arg(call, 0, "a")?, point_arg(call, 1, "b")?);
        jacobian_out(call, &a.to_jacobian().add_affine(&b.neg()))
    })?;
    exports.function("g1Neg", |call| point_out(call, &point_arg(call, 0, "point")?.neg()))?;
    exports.function("g1Mul", |call| {
        let p = point_arg(call, 0, "point")?;
        point_out(call, &mul_var_affine(&p, call.bytes_exact(1, "scalar", 32)?))
    })?;
    exports.function("g1MulSecret", |call| {
        let p = point_arg(call, 0, "point")?;
        point_out(call, &mul_secret_affine(&p, call.bytes_exact(1, "scalar", 32)?))
    })?;
    exports.function("g1MulTimings", |call| timings_fn(call, mul_var_affine))?;
    exports.function("g1MulSecretTimings", |call| timings_fn(call, mul_secret_affine))?;
    exports.function("g1FixedBaseTable", fixed_base_table_fn)?;
    exports.function("g1FixedBaseMul", fixed_base_mul_fn)?;
    exports.function("g1Msm", msm_fn)?;
    exports.function("g1MsmTable", msm_table_fn)?;
    exports.function("g1MsmTableRun", msm_table_run_fn)?;
    exports.function("g1Progression", progression_fn)?;
    exports.function("g1AddToCompressed", |call| {
        call.buffer(&add_to_compressed(call.bytes(0, "compressed points")?, call.bytes(1, "points")?)?)
    })?;
    exports.function("hashToPoint", |call| point_out(call, &hash_to_point(call.bytes(0, "data")?)))?;
    exports.function("g1Generators", |call| points_out(call, &generators(call.string(0, "domain")?.as_bytes())))
}
