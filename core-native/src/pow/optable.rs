//! Umbra's AstroBWTv3 op table, derived at compile time by the rule of core-native/tools/gen-optable.mjs (which
//! writes the TypeScript copy, core-native/ts/pow/optable.ts): the primitive ids are the low nibbles of the byte
//! stream SHA-256(SEED ‖ uint32_be(counter)), counter = 0, 1, …, taken in order; 255 blocks of 4 ids. A unit test
//! checks that this table equals the committed TypeScript one number for number. The SHA-256 is crate::hash::sha256,
//! a `const fn`.

pub const SEED: &str = "UMBRA AstroBWTv3 op table v1";
pub const BLOCKS: usize = 255;

/// Block b applies OP_TABLE[4b … 4b+3] in order (ops 254 and 255 share block 254).
pub static OP_TABLE: [u8; BLOCKS * 4] = generate();

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
        let digest = crate::hash::sha256(&message);
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
    fn equals_the_committed_typescript_table() {
        let source = include_str!("../../ts/pow/optable.ts");
        assert!(source.contains(&format!("from the seed \"{SEED}\"")));
        let body = &source[source.find("from([").expect("table start") + 6..source.find("]);").expect("table end")];
        let ids: Vec<u8> =
            body.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect();
        assert_eq!(ids.len(), BLOCKS * 4);
        assert_eq!(&ids[..], &OP_TABLE[..]);
    }
}
