//! SHA-256 for the proof of work: the final digest covers the whole suffix array (~280 KB), so on x86-64 CPUs with
//! the SHA extensions (detected at run time) the compression uses them; elsewhere it is crate::hash::sha256.

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
    use std::arch::x86_64::*;
    use std::sync::atomic::{AtomicU8, Ordering};

    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ];

    /// 0 = not probed yet, 1 = absent, 2 = present.
    static STATE: AtomicU8 = AtomicU8::new(0);

    pub fn available() -> bool {
        match STATE.load(Ordering::Relaxed) {
            0 => {
                let present = is_x86_feature_detected!("sha") && is_x86_feature_detected!("sse4.1") && is_x86_feature_detected!("ssse3");
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
        let iv: [u32; 8] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
        // Registers hold lanes low → high; ABEF = [F, E, B, A], CDGH = [H, G, D, C].
        let mut abef = _mm_set_epi32(iv[0] as i32, iv[1] as i32, iv[4] as i32, iv[5] as i32);
        let mut cdgh = _mm_set_epi32(iv[2] as i32, iv[3] as i32, iv[6] as i32, iv[7] as i32);
        let whole = data.len() / 64 * 64;
        compress(&mut abef, &mut cdgh, &data[..whole]);
        let tail = &data[whole..];
        let mut last = [0u8; 128];
        last[..tail.len()].copy_from_slice(tail);
        last[tail.len()] = 0x80;
        let end = if tail.len() < 56 { 64 } else { 128 };
        last[end - 8..end].copy_from_slice(&((data.len() as u64).wrapping_mul(8)).to_be_bytes());
        compress(&mut abef, &mut cdgh, &last[..end]);
        let mut a = [0u32; 4];
        let mut c = [0u32; 4];
        _mm_storeu_si128(a.as_mut_ptr() as *mut __m128i, abef);
        _mm_storeu_si128(c.as_mut_ptr() as *mut __m128i, cdgh);
        let words = [a[3], a[2], c[3], c[2], a[1], a[0], c[1], c[0]];
        let mut out = [0u8; 32];
        for (chunk, word) in out.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
        out
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
