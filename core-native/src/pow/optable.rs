//! Umbra's AstroBWTv3 op table, derived at compile time by the rule of core-native/tools/gen-optable.mjs (which
//! writes the TypeScript copy, core-native/ts/pow/optable.ts): the primitive ids are the low nibbles of the byte
//! stream SHA-256(SEED ‖ uint32_be(counter)), counter = 0, 1, …, taken in order; 255 blocks of 4 ids. A unit test
//! checks that this table equals the committed TypeScript one number for number.

pub const SEED: &str = "UMBRA AstroBWTv3 op table v1";
pub const BLOCKS: usize = 255;

/// Block b applies OP_TABLE[4b … 4b+3] in order (ops 254 and 255 share block 254).
pub static OP_TABLE: [u8; BLOCKS * 4] = generate();

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

/// SHA-256 of a message shorter than 56 bytes (one padded block), usable in constant evaluation.
const fn sha256_short(message: &[u8]) -> [u8; 32] {
    assert!(message.len() < 56);
    let mut block = [0u8; 64];
    let mut i = 0;
    while i < message.len() {
        block[i] = message[i];
        i += 1;
    }
    block[message.len()] = 0x80;
    let bits = (message.len() as u64) * 8;
    let mut b = 0;
    while b < 8 {
        block[63 - b] = (bits >> (8 * b)) as u8;
        b += 1;
    }
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
    let iv: [u32; 8] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = iv;
    t = 0;
    while t < 64 {
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let t1 = h.wrapping_add(s1).wrapping_add((e & f) ^ (!e & g)).wrapping_add(K[t]).wrapping_add(w[t]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let t2 = s0.wrapping_add((a & b) ^ (a & c) ^ (b & c));
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
    let words = [a, b, c, d, e, f, g, h];
    let mut out = [0u8; 32];
    let mut k = 0;
    while k < 8 {
        let bytes = words[k].wrapping_add(iv[k]).to_be_bytes();
        out[4 * k] = bytes[0];
        out[4 * k + 1] = bytes[1];
        out[4 * k + 2] = bytes[2];
        out[4 * k + 3] = bytes[3];
        k += 1;
    }
    out
}

const fn generate() -> [u8; BLOCKS * 4] {
    let seed = SEED.as_bytes();
    let mut message = [0u8; SEED.len() + 4];
    let mut i = 0;
    while i < seed.len() {
        message[i] = seed[i];
        i += 1;
    }
    let mut table = [0u8; BLOCKS * 4];
    let mut filled = 0;
    let mut counter: u32 = 0;
    while filled < table.len() {
        let be = counter.to_be_bytes();
        let mut b = 0;
        while b < 4 {
            message[seed.len() + b] = be[b];
            b += 1;
        }
        let digest = sha256_short(&message);
        let mut k = 0;
        while k < 32 && filled < table.len() {
            table[filled] = digest[k] & 0x0f;
            filled += 1;
            k += 1;
        }
        counter += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn const_sha256_matches_the_library_one() {
        for length in 0..56 {
            let message: Vec<u8> = (0..length).map(|i| (i * 37 + 11) as u8).collect();
            assert_eq!(sha256_short(&message), crate::hash::sha256(&message), "length {length}");
        }
    }

    #[test]
    fn equals_the_committed_typescript_table() {
        let source = include_str!("../../ts/pow/optable.ts");
        assert!(source.contains(&format!("from the seed \"{SEED}\"")));
        let body = &source[source.find("from([").expect("table start") + 6..source.find("]);").expect("table end")];
        let ids: Vec<u8> = body.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect();
        assert_eq!(ids.len(), BLOCKS * 4);
        assert_eq!(&ids[..], &OP_TABLE[..]);
    }
}
