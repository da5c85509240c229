//! SHA-256 (FIPS 180-4): the crate's one copy of its round constants, padding and portable compression.
//! Everything is a `const fn`, so tables derived from SHA-256 (the PoW op table) are computed at compile time by this
//! same code; the PoW's SHA-extension path (pow/sha256.rs) shares the constants and the padding.

/// The round constants (eight per row, as FIPS 180-4 prints them).
#[rustfmt::skip]
pub const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// The initial hash value; BLAKE2s uses the same eight words as its IV.
pub const IV: [u32; 8] =
    [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/// The message's padded last blocks: the bytes after its whole 64-byte blocks, 0x80, zeros and the length in bits
/// (64-bit big-endian). Returns the blocks and how many of them to compress (1 or 2).
pub const fn final_blocks(message: &[u8]) -> ([[u8; 64]; 2], usize) {
    let whole = message.len() / 64 * 64;
    let tail = message.len() - whole;
    let mut last = [[0u8; 64]; 2];
    let mut i = 0;
    while i < tail {
        last[0][i] = message[whole + i];
        i += 1;
    }
    last[0][tail] = 0x80;
    let count = if tail < 56 { 1 } else { 2 };
    let bits = (message.len() as u64).wrapping_mul(8).to_be_bytes();
    let mut b = 0;
    while b < 8 {
        last[count - 1][56 + b] = bits[b];
        b += 1;
    }
    (last, count)
}

/// The digest bytes of the final state words A … H.
pub const fn digest_bytes(words: [u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut k = 0;
    while k < 32 {
        out[k] = (words[k / 4] >> (24 - 8 * (k % 4))) as u8;
        k += 1;
    }
    out
}

const fn compress(state: &mut [u32; 8], block: &[u8; 64]) {
    let mut w = [0u32; 64];
    let mut t = 0;
    while t < 16 {
        w[t] = u32::from_be_bytes([block[4 * t], block[4 * t + 1], block[4 * t + 2], block[4 * t + 3]]);
        t += 1;
    }
    while t < 64 {
        let s0 = w[t - 15].rotate_right(7) ^ w[t - 15].rotate_right(18) ^ (w[t - 15] >> 3);
        let s1 = w[t - 2].rotate_right(17) ^ w[t - 2].rotate_right(19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16].wrapping_add(s0).wrapping_add(w[t - 7]).wrapping_add(s1);
        t += 1;
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    t = 0;
    while t < 64 {
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let choose = (e & f) ^ (!e & g);
        let t1 = h.wrapping_add(s1).wrapping_add(choose).wrapping_add(K[t]).wrapping_add(w[t]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let majority = (a & b) ^ (a & c) ^ (b & c);
        let t2 = s0.wrapping_add(majority);
        h = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
        t += 1;
    }
    let sums = [a, b, c, d, e, f, g, h];
    let mut k = 0;
    while k < 8 {
        state[k] = state[k].wrapping_add(sums[k]);
        k += 1;
    }
}

pub const fn sha256(data: &[u8]) -> [u8; 32] {
    let mut state = IV;
    let mut rest = data;
    while let Some((block, after)) = rest.split_first_chunk::<64>() {
        compress(&mut state, block);
        rest = after;
    }
    let (last, count) = final_blocks(data);
    compress(&mut state, &last[0]);
    if count == 2 {
        compress(&mut state, &last[1]);
    }
    digest_bytes(state)
}
