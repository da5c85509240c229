//! Salsa20/20 key stream (Bernstein, "Salsa20 specification"), 256-bit key, 64-bit nonce, 64-bit block counter
//! from 0. AstroBWTv3 only needs the first 256 bytes of the stream for a zero nonce.

const SIGMA: [u32; 4] = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]; // "expand 32-byte k"

#[inline(always)]
fn quarter_round(x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    x[b] ^= x[a].wrapping_add(x[d]).rotate_left(7);
    x[c] ^= x[b].wrapping_add(x[a]).rotate_left(9);
    x[d] ^= x[c].wrapping_add(x[b]).rotate_left(13);
    x[a] ^= x[d].wrapping_add(x[c]).rotate_left(18);
}

fn block(input: &[u32; 16], out: &mut [u8]) {
    let mut x = *input;
    for _ in 0..10 {
        // column round, then row round
        quarter_round(&mut x, 0, 4, 8, 12);
        quarter_round(&mut x, 5, 9, 13, 1);
        quarter_round(&mut x, 10, 14, 2, 6);
        quarter_round(&mut x, 15, 3, 7, 11);
        quarter_round(&mut x, 0, 1, 2, 3);
        quarter_round(&mut x, 5, 6, 7, 4);
        quarter_round(&mut x, 10, 11, 8, 9);
        quarter_round(&mut x, 15, 12, 13, 14);
    }
    for (i, chunk) in out.chunks_mut(4).enumerate() {
        let word = x[i].wrapping_add(input[i]).to_le_bytes();
        chunk.copy_from_slice(&word[..chunk.len()]);
    }
}

/// Fills `out` with the Salsa20/20 key stream for `key` and `nonce`, starting at block 0.
pub fn keystream(key: &[u8; 32], nonce: &[u8; 8], out: &mut [u8]) {
    let word = |bytes: &[u8], i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
    let mut state = [0u32; 16];
    state[0] = SIGMA[0];
    state[5] = SIGMA[1];
    state[10] = SIGMA[2];
    state[15] = SIGMA[3];
    for i in 0..4 {
        state[1 + i] = word(key, i);
        state[11 + i] = word(key, 4 + i);
    }
    state[6] = word(nonce, 0);
    state[7] = word(nonce, 1);
    for (counter, chunk) in out.chunks_mut(64).enumerate() {
        state[8] = counter as u32;
        state[9] = ((counter as u64) >> 32) as u32;
        block(&state, chunk);
    }
}
