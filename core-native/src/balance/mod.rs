//! Balance decoding: find b with b·G = P by baby-step giant-step (docs/cryptography.md § Balance decoding).
//!
//! The table format is shared with the TypeScript fallback (core-native/ts/fallback/balance.ts), byte for byte:
//!   magic "UMBRABAL" ‖ version u32 ‖ bits u32 ‖ base point (64 bytes) ‖ bucket index (65537 × u32) ‖ entries (u32)
//! all little-endian. Baby steps are j·G for j in [1, 2^bits); x_tag is the low 40 bits of the canonical x
//! coordinate of j·G. Its top 16 bits name j's bucket; the entry holds the next 32 − bits tag bits (the residue)
//! above j: (residue << bits) | j, entries sorted by bucket, residue and j. x(jG) = x(−jG), so one table answers ±j
//! and the giant stride is M = 2^(bits+1) − 1: giant step i covers [i·M − (2^bits − 1), i·M + 2^bits − 1].
//! bucket index[t] = the first entry of bucket ≥ t. A tag match (16 + 32 − bits bits) is only a candidate: it is
//! confirmed by comparing j·G with the giant-step point exactly, so a returned value is always right.

use crate::bn254::fp::Fp;
use crate::bn254::mul::mul_var;
use crate::bn254::point::{batch_normalize, Affine, Jacobian};

pub const MAGIC: &[u8; 8] = b"UMBRABAL";
pub const VERSION: u32 = 2;
pub const MIN_BITS: u32 = 8;
pub const MAX_BITS: u32 = 24; // an entry keeps at least 8 residue bits above j
const BUCKETS: usize = 1 << 16;
const HEADER: usize = 8 + 4 + 4 + 64;
const INDEX_BYTES: usize = (BUCKETS + 1) * 4;

pub fn table_size(bits: u32) -> usize {
    HEADER + INDEX_BYTES + ((1usize << bits) - 1) * 4
}

fn x_tag(x: &Fp) -> u64 {
    x.to_canonical()[0] & ((1 << 40) - 1)
}

/// The tag's bucket (top 16 bits) and residue (the next 32 − bits) as one (48 − bits)-bit key.
fn key(tag: u64, bits: u32) -> u64 {
    tag >> (bits - 8)
}

/// (key << bits) | j of j·G for j in [first, first + count), computed in Jacobian form and normalised in batches.
fn baby_steps(g: &Affine, bits: u32, first: u64, count: usize, out: &mut Vec<u64>) {
    const BATCH: usize = 4096;
    let mut current = mul_var(g, &[first, 0, 0, 0]);
    let mut batch = Vec::with_capacity(BATCH);
    let mut j = first;
    for _ in 0..count {
        batch.push(current);
        current = current.add_affine(g);
        if batch.len() == BATCH {
            flush(&mut batch, bits, &mut j, out);
        }
    }
    flush(&mut batch, bits, &mut j, out);
}

fn flush(batch: &mut Vec<Jacobian>, bits: u32, j: &mut u64, out: &mut Vec<u64>) {
    // Only x is needed: x = X / Z².
    let mut zs: Vec<Fp> = batch.iter().map(|p| p.z).collect();
    crate::bn254::fp::batch_invert(&mut zs);
    for (p, zi) in batch.iter().zip(zs.iter()) {
        out.push((key(x_tag(&p.x.mul(&zi.square())), bits) << bits) | *j);
        *j += 1;
    }
    batch.clear();
}

/// Builds the serialised table for base G with 2^bits − 1 baby steps (two threads).
pub fn build(g: &Affine, bits: u32) -> Result<Vec<u8>, String> {
    if !(MIN_BITS..=MAX_BITS).contains(&bits) {
        return Err(format!("balance table bits must be in [{MIN_BITS}, {MAX_BITS}], got {bits}"));
    }
    if g.infinity {
        return Err("balance table base must be a finite point".into());
    }
    let count = (1usize << bits) - 1;
    let half = count / 2;
    let mut entries = Vec::with_capacity(count);
    let mut upper = Vec::with_capacity(count - half);
    std::thread::scope(|scope| {
        scope.spawn(|| baby_steps(g, bits, 1 + half as u64, count - half, &mut upper));
        baby_steps(g, bits, 1, half, &mut entries);
    });
    entries.extend_from_slice(&upper);
    entries.sort_unstable();

    let mut out = vec![0u8; table_size(bits)];
    out[..8].copy_from_slice(MAGIC);
    out[8..12].copy_from_slice(&VERSION.to_le_bytes());
    out[12..16].copy_from_slice(&bits.to_le_bytes());
    g.to_bytes(&mut out[16..80]);
    let mut position = 0usize;
    for bucket in 0..=BUCKETS {
        while position < entries.len() && ((entries[position] >> 32) as usize) < bucket {
            position += 1;
        }
        let at = HEADER + bucket * 4;
        out[at..at + 4].copy_from_slice(&(position as u32).to_le_bytes());
    }
    for (chunk, entry) in out[HEADER + INDEX_BYTES..].chunks_exact_mut(4).zip(entries.iter()) {
        chunk.copy_from_slice(&(*entry as u32).to_le_bytes());
    }
    Ok(out)
}

/// A validated view of a serialised table.
pub struct Table<'a> {
    pub bits: u32,
    pub base: Affine,
    index: &'a [u8],
    entries: &'a [u8],
}

impl<'a> Table<'a> {
    pub fn parse(bytes: &'a [u8]) -> Result<Table<'a>, String> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err("not a balance table (bad magic)".into());
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
        if version != VERSION {
            return Err(format!("unsupported balance table version {version}"));
        }
        let bits = u32::from_le_bytes(bytes[12..16].try_into().unwrap());
        if !(MIN_BITS..=MAX_BITS).contains(&bits) || bytes.len() != table_size(bits) {
            return Err(format!(
                "balance table is truncated or has a bad size ({} bytes for {bits} bits)",
                bytes.len()
            ));
        }
        let base = Affine::from_bytes(&bytes[16..80]).map_err(|e| format!("balance table base: {e}"))?;
        let table =
            Table { bits, base, index: &bytes[HEADER..HEADER + INDEX_BYTES], entries: &bytes[HEADER + INDEX_BYTES..] };
        if table.bucket_start(BUCKETS) != (1usize << bits) - 1 {
            return Err("balance table index is corrupt".into());
        }
        Ok(table)
    }

    fn bucket_start(&self, bucket: usize) -> usize {
        u32::from_le_bytes(self.index[bucket * 4..bucket * 4 + 4].try_into().unwrap()) as usize
    }

    fn entry(&self, i: usize) -> u32 {
        u32::from_le_bytes(self.entries[i * 4..i * 4 + 4].try_into().unwrap())
    }

    /// Baby-step indices j whose tag matches `tag` in its bucket and residue bits.
    fn candidates(&self, tag: u64) -> impl Iterator<Item = u64> + '_ {
        let bits = self.bits;
        let key = key(tag, bits);
        let (bucket, residue) = ((key >> (32 - bits)) as usize, (key as u32) & (u32::MAX >> bits));
        let (start, end) = (self.bucket_start(bucket), self.bucket_start(bucket + 1).min((1usize << bits) - 1));
        (start..end.max(start))
            .map(move |i| self.entry(i))
            .filter(move |e| e >> bits == residue)
            .map(move |e| (e & ((1 << bits) - 1)) as u64)
    }

    /// The value b ≤ max_value with b·G = point, trying the hints first; None when there is none in range.
    pub fn decode(&self, point: &Affine, hints: &[u64], max_value: u64) -> Option<u64> {
        if point.infinity {
            return Some(0);
        }
        for &hint in hints {
            if hint <= max_value && mul_var(&self.base, &[hint, 0, 0, 0]).to_affine() == *point {
                return Some(hint);
            }
        }
        let half = (1u128 << self.bits) - 1;
        let stride = 2 * half + 1;
        let limit = max_value as u128 + half;
        // Giant step 0 is the point itself: small balances need no stride point and no batch.
        if let Some(v) = self.match_step(point, 0) {
            if v <= max_value as u128 {
                return Some(v as u64);
            }
        }
        let minus_stride = mul_var(&self.base, &[stride as u64, 0, 0, 0]).to_affine().neg();
        let mut q = point.to_jacobian().add_affine(&minus_stride);
        let mut i: u128 = 1;
        // Batches grow from 4 to 256 giant steps: one inversion per batch, little waste when the value is near.
        let mut batch_size = 4usize;
        while i * stride <= limit {
            let mut batch = Vec::with_capacity(batch_size);
            for _ in 0..batch_size {
                batch.push(q);
                q = q.add_affine(&minus_stride);
            }
            for (offset, qa) in batch_normalize(&batch).iter().enumerate() {
                let center = (i + offset as u128) * stride;
                if center > limit {
                    return None;
                }
                if let Some(v) = self.match_step(qa, center) {
                    if v <= max_value as u128 {
                        return Some(v as u64);
                    }
                }
            }
            i += batch_size as u128;
            batch_size = (batch_size * 2).min(256);
        }
        None
    }

    /// The value center ± j if the giant-step point q equals ±j·G for a baby step j.
    fn match_step(&self, q: &Affine, center: u128) -> Option<u128> {
        if q.infinity {
            return Some(center);
        }
        for j in self.candidates(x_tag(&q.x)) {
            // j·G = (X/Z², Y/Z³) is compared without an inversion: a false candidate (one giant step in 64 with
            // 2^21 entries) then costs only the multiplication.
            let r = mul_var(&self.base, &[j, 0, 0, 0]);
            let z2 = r.z.square();
            if r.is_infinity() || q.x.mul(&z2) != r.x {
                continue;
            }
            let y = q.y.mul(&z2.mul(&r.z));
            if y == r.y {
                return Some(center + j as u128);
            }
            if y == r.y.neg() && center >= j as u128 {
                return Some(center - j as u128);
            }
        }
        None
    }
}

#[cfg(not(test))]
pub fn register(exports: &crate::napi::Exports) -> Result<(), String> {
    exports.function("balanceTableBuild", |call| {
        let base = Affine::from_bytes(call.bytes(0, "base")?).map_err(|e| format!("base: {e}"))?;
        let bits = call.index(1, "bits")?;
        let table = build(&base, bits.min(u32::MAX as u64) as u32)?;
        call.buffer(&table)
    })?;
    exports.function("balanceTableCheck", |call| {
        Table::parse(call.bytes(0, "table")?)?;
        call.undefined()
    })?;
    exports.function("balanceDecode", |call| {
        let table = Table::parse(call.bytes(0, "table")?)?;
        let point = Affine::from_bytes(call.bytes(1, "point")?).map_err(|e| format!("point: {e}"))?;
        let hints: Vec<u64> =
            call.bytes(2, "hints")?.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
        let max_value = call.bigint_u64(3, "maxValue")?;
        match table.decode(&point, &hints, max_value) {
            Some(v) => call.bigint(v),
            None => call.null(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bn254::hash_to_point::hash_to_point;

    #[test]
    fn decodes_across_giant_steps_and_signs() {
        let g = hash_to_point(b"DEROG");
        let bytes = build(&g, 10).unwrap();
        let table = Table::parse(&bytes).unwrap();
        for b in [0u64, 1, 2, 1023, 1024, 2046, 2047, 2048, 5000, 123_456, 1_000_003] {
            let p = mul_var(&g, &[b, 0, 0, 0]).to_affine();
            assert_eq!(table.decode(&p, &[], 2_000_000), Some(b), "b = {b}");
        }
        let far = mul_var(&g, &[10_000_000, 0, 0, 0]).to_affine();
        assert_eq!(table.decode(&far, &[], 1_000_000), None);
        assert_eq!(table.decode(&far, &[7, 10_000_000], 20_000_000), Some(10_000_000));
        assert!(Table::parse(&bytes[..bytes.len() - 8]).is_err());
    }
}
