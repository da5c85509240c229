//! SHA-256 for the proof of work: the final digest covers the whole suffix array (~280 KB), so on x86-64 CPUs with
//! the SHA extensions (detected at run time) the compression uses them; elsewhere it is crate::hash::sha256. Both
//! take the round constants and the padding from crate::hash::sha256.

pub fn sha256(data: &[u8]) -> [u8; 32] {
    #[cfg(target_arch = "x86_64")]
    {
        if ni::available() {
            // SAFETY: the CPU supports the instructions `digest` is compiled for.
            return unsafe { ni::digest(data) };
        }
    }
    crate::hash::sha256(data)
}

#[cfg(target_arch = "x86_64")]
mod ni {
    use crate::hash::sha256::{digest_bytes, final_blocks, IV, K};
    use std::arch::x86_64::*;
    use std::sync::atomic::{AtomicU8, Ordering};

    /// 0 = not probed yet, 1 = absent, 2 = present.
    static STATE: AtomicU8 = AtomicU8::new(0);

    pub fn available() -> bool {
        match STATE.load(Ordering::Relaxed) {
            0 => {
                let present = is_x86_feature_detected!("sha")
                    && is_x86_feature_detected!("sse4.1")
                    && is_x86_feature_detected!("ssse3");
                STATE.store(if present { 2 } else { 1 }, Ordering::Relaxed);
                present
            }
            state => state == 2,
        }
    }

    /// Compresses whole 64-byte blocks into the state, held as the (ABEF, CDGH) register pair the instructions use.
    /// Never inlined: the sha256* instructions exist only in the legacy SSE encoding, and running them while the
    /// upper halves of the ymm registers are dirty (the AVX code around, under -C target-cpu=native) costs a
    /// transition penalty on every instruction — about 100× slower here. A call makes LLVM emit vzeroupper first.
    #[inline(never)]
    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    unsafe fn compress(abef: &mut __m128i, cdgh: &mut __m128i, blocks: &[u8]) {
        // Big-endian words: reverse the bytes of each 32-bit lane.
        let swap = _mm_set_epi64x(0x0c0d0e0f_08090a0bu64 as i64, 0x04050607_00010203u64 as i64);
        for block in blocks.chunks_exact(64) {
            let (save_abef, save_cdgh) = (*abef, *cdgh);
            let mut w = [_mm_setzero_si128(); 4];
            for (i, lane) in w.iter_mut().enumerate() {
                *lane = _mm_shuffle_epi8(_mm_loadu_si128(block.as_ptr().add(16 * i) as *const __m128i), swap);
            }
            for group in 0..16 {
                if group >= 4 {
                    // w[t..t+4] from w[t-16..t-12] (msg1 adds σ0), w[t-7..t-3] and σ1 of w[t-2], w[t-1] (msg2).
                    let (w0, w1, w2, w3) = (w[group % 4], w[(group + 1) % 4], w[(group + 2) % 4], w[(group + 3) % 4]);
                    let partial = _mm_add_epi32(_mm_sha256msg1_epu32(w0, w1), _mm_alignr_epi8(w3, w2, 4));
                    w[group % 4] = _mm_sha256msg2_epu32(partial, w3);
                }
                let k = _mm_loadu_si128(K.as_ptr().add(4 * group) as *const __m128i);
                let msg = _mm_add_epi32(w[group % 4], k);
                *cdgh = _mm_sha256rnds2_epu32(*cdgh, *abef, msg);
                *abef = _mm_sha256rnds2_epu32(*abef, *cdgh, _mm_shuffle_epi32(msg, 0x0e));
            }
            *abef = _mm_add_epi32(*abef, save_abef);
            *cdgh = _mm_add_epi32(*cdgh, save_cdgh);
        }
    }

    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    pub unsafe fn digest(data: &[u8]) -> [u8; 32] {
        // Registers hold lanes low → high; ABEF = [F, E, B, A], CDGH = [H, G, D, C].
        let mut abef = _mm_set_epi32(IV[0] as i32, IV[1] as i32, IV[4] as i32, IV[5] as i32);
        let mut cdgh = _mm_set_epi32(IV[2] as i32, IV[3] as i32, IV[6] as i32, IV[7] as i32);
        compress(&mut abef, &mut cdgh, &data[..data.len() / 64 * 64]);
        let (last, count) = final_blocks(data);
        compress(&mut abef, &mut cdgh, &last.as_flattened()[..64 * count]);
        let mut a = [0u32; 4];
        let mut c = [0u32; 4];
        _mm_storeu_si128(a.as_mut_ptr() as *mut __m128i, abef);
        _mm_storeu_si128(c.as_mut_ptr() as *mut __m128i, cdgh);
        digest_bytes([a[3], a[2], c[3], c[2], a[1], a[0], c[1], c[0]])
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn agrees_with_the_portable_sha256() {
        let data: Vec<u8> = (0..3000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        for length in (0..200).chain([255, 256, 1000, 2999, 3000]) {
            assert_eq!(super::sha256(&data[..length]), crate::hash::sha256(&data[..length]), "length {length}");
        }
    }
}

#[cfg(test)]
mod profile {
    #[test]
    #[ignore]
    fn speed() {
        let data = vec![5u8; 280_000];
        for (name, f) in [("ni", super::sha256 as fn(&[u8]) -> [u8; 32]), ("portable", crate::hash::sha256)] {
            let t = std::time::Instant::now();
            for _ in 0..20 {
                std::hint::black_box(f(std::hint::black_box(&data)));
            }
            eprintln!("{name}: {:.1} us per 280 KB", t.elapsed().as_secs_f64() / 20.0 * 1e6);
        }
    }
}
