//! XChaCha20 (draft-irtf-cfrg-xchacha): HChaCha20 derives a subkey from the key and the first 16 nonce bytes,
//! then ChaCha20 (RFC 8439, 32-bit counter from 0) runs with nonce 0⁴ ‖ the last 8 nonce bytes.
//! Used for the 144-byte per-receiver payload (docs/cryptography.md § Payloads).

const CONSTANTS: [u32; 4] = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]; // "expand 32-byte k"

#[inline(always)]
fn quarter_round(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(16);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(12);
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(8);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(7);
}

fn rounds(state: &mut [u32; 16]) {
    for _ in 0..10 {
        quarter_round(state, 0, 4, 8, 12);
        quarter_round(state, 1, 5, 9, 13);
        quarter_round(state, 2, 6, 10, 14);
        quarter_round(state, 3, 7, 11, 15);
        quarter_round(state, 0, 5, 10, 15);
        quarter_round(state, 1, 6, 11, 12);
        quarter_round(state, 2, 7, 8, 13);
        quarter_round(state, 3, 4, 9, 14);
    }
}

fn words_le(bytes: &[u8], out: &mut [u32]) {
    for (word, chunk) in out.iter_mut().zip(bytes.chunks_exact(4)) {
        *word = u32::from_le_bytes(chunk.try_into().unwrap());
    }
}

fn initial_state(key: &[u8; 32], tail: &[u8; 16]) -> [u32; 16] {
    let mut state = [0u32; 16];
    state[..4].copy_from_slice(&CONSTANTS);
    words_le(key, &mut state[4..12]);
    words_le(tail, &mut state[12..]);
    state
}

pub fn hchacha20(key: &[u8; 32], nonce16: &[u8; 16]) -> [u8; 32] {
    let mut state = initial_state(key, nonce16);
    rounds(&mut state);
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(state[..4].iter().chain(state[12..].iter())) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    out
}

/// data XOR the XChaCha20 key stream, in place.
pub fn xchacha20(key: &[u8; 32], nonce: &[u8; 24], data: &mut [u8]) {
    let subkey = hchacha20(key, nonce[..16].try_into().unwrap());
    let mut tail = [0u8; 16]; // counter (4 bytes, starts at 0) ‖ 0⁴ ‖ nonce[16..24]
    tail[8..].copy_from_slice(&nonce[16..]);
    let base = initial_state(&subkey, &tail);
    for (counter, block) in data.chunks_mut(64).enumerate() {
        let mut state = base;
        state[12] = counter as u32;
        let input = state;
        rounds(&mut state);
        for (i, byte) in block.iter_mut().enumerate() {
            let word = state[i / 4].wrapping_add(input[i / 4]);
            *byte ^= (word >> (8 * (i % 4))) as u8;
        }
    }
}

#[cfg(not(test))]
pub fn register(exports: &crate::napi::Exports) -> Result<(), String> {
    exports.function("xchacha20", |call| {
        let key: &[u8; 32] = call.bytes_exact(0, "key", 32)?.try_into().unwrap();
        let nonce: &[u8; 24] = call.bytes_exact(1, "nonce", 24)?.try_into().unwrap();
        let data = call.bytes(2, "data")?;
        if data.len() as u64 > 64 * (1u64 << 32) {
            return Err("data is longer than the 2^32-block XChaCha20 limit".into());
        }
        call.buffer_with(data.len(), |out| {
            out.copy_from_slice(data);
            xchacha20(key, nonce, out);
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn hchacha20_draft_vector() {
        let key: [u8; 32] = std::array::from_fn(|i| i as u8);
        let nonce = [0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x4a, 0x00, 0x00, 0x00, 0x00, 0x31, 0x41, 0x59, 0x27];
        assert_eq!(hex(&hchacha20(&key, &nonce)), "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc");
    }

    #[test]
    fn payload_key_stream_vector() {
        let key: Vec<u8> = (0..32)
            .map(|i| {
                u8::from_str_radix(
                    &"f0978a101072ca91badfe23076531fde868feb165b8c72017cfd02577ede96e8"[2 * i..2 * i + 2],
                    16,
                )
                .unwrap()
            })
            .collect();
        let mut data = [0u8; 16];
        xchacha20(key.as_slice().try_into().unwrap(), &[0u8; 24], &mut data);
        assert_eq!(hex(&data), "9b0ceaaf6e4be60175fa77cbceeeca67");
    }
}
