//! Keccak-f[1600] and the 256-bit sponge (FIPS 202). The same permutation gives the legacy Keccak-256
//! (pad byte 0x01, as Ethereum and the reference protocol use) and FIPS-202 SHA3-256 (pad byte 0x06).

const ROUND_CONSTANTS: [u64; 24] = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808a,
    0x8000000080008000,
    0x000000000000808b,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008a,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000a,
    0x000000008000808b,
    0x800000000000008b,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800a,
    0x800000008000000a,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
];

/// ρ rotation amounts, in the order the π step visits the lanes.
const RHO: [u32; 24] = [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44];
/// π: the lane each step of the walk moves to.
const PI: [usize; 24] = [10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1];

pub fn keccak_f1600(state: &mut [u64; 25]) {
    for &round_constant in ROUND_CONSTANTS.iter() {
        // θ
        let mut column = [0u64; 5];
        for x in 0..5 {
            column[x] = state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20];
        }
        for x in 0..5 {
            let d = column[(x + 4) % 5] ^ column[(x + 1) % 5].rotate_left(1);
            for y in (0..25).step_by(5) {
                state[y + x] ^= d;
            }
        }
        // ρ and π
        let mut carried = state[1];
        for i in 0..24 {
            let next = state[PI[i]];
            state[PI[i]] = carried.rotate_left(RHO[i]);
            carried = next;
        }
        // χ
        for y in (0..25).step_by(5) {
            let row = [state[y], state[y + 1], state[y + 2], state[y + 3], state[y + 4]];
            for x in 0..5 {
                state[y + x] = row[x] ^ (!row[(x + 1) % 5] & row[(x + 2) % 5]);
            }
        }
        // ι
        state[0] ^= round_constant;
    }
}

/// Rate of a 256-bit-output sponge: 1600 − 2·256 bits.
const RATE: usize = 136;

fn absorb_block(state: &mut [u64; 25], block: &[u8]) {
    for (lane, chunk) in state.iter_mut().zip(block.chunks_exact(8)) {
        *lane ^= u64::from_le_bytes(chunk.try_into().unwrap());
    }
    keccak_f1600(state);
}

/// Absorbs the whole RATE-byte blocks of `data` into `state`; returns the bytes left over.
fn absorb_blocks<'a>(state: &mut [u64; 25], data: &'a [u8]) -> &'a [u8] {
    let mut blocks = data.chunks_exact(RATE);
    for block in &mut blocks {
        absorb_block(state, block);
    }
    blocks.remainder()
}

/// Absorbs `data` into `state`, pads and squeezes 32 bytes.
fn finish256(mut state: [u64; 25], data: &[u8], pad: u8) -> [u8; 32] {
    let tail = absorb_blocks(&mut state, data);
    let mut last = [0u8; RATE];
    last[..tail.len()].copy_from_slice(tail);
    last[tail.len()] ^= pad;
    last[RATE - 1] ^= 0x80;
    absorb_block(&mut state, &last);
    let mut out = [0u8; 32];
    for (chunk, lane) in out.chunks_exact_mut(8).zip(state.iter()) {
        chunk.copy_from_slice(&lane.to_le_bytes());
    }
    out
}

fn sponge256(data: &[u8], pad: u8) -> [u8; 32] {
    finish256([0u64; 25], data, pad)
}

/// Keccak-256 of many messages that share a prefix: the state after the prefix's whole blocks is computed once.
#[derive(Clone, Copy)]
pub struct Keccak256Prefix {
    state: [u64; 25],
    /// How many bytes of the prefix the state has absorbed (a multiple of RATE).
    absorbed: usize,
}

impl Keccak256Prefix {
    pub fn new(prefix: &[u8]) -> Self {
        let mut state = [0u64; 25];
        let tail = absorb_blocks(&mut state, prefix);
        Keccak256Prefix { state, absorbed: prefix.len() - tail.len() }
    }

    /// Keccak-256 of `message`, whose first bytes must be the prefix given to `new`.
    pub fn hash(&self, message: &[u8]) -> [u8; 32] {
        finish256(self.state, &message[self.absorbed..], 0x01)
    }
}

/// Keccak-256 with the original (pre-FIPS) padding.
pub fn keccak256(data: &[u8]) -> [u8; 32] {
    sponge256(data, 0x01)
}

/// FIPS-202 SHA3-256.
pub fn sha3_256(data: &[u8]) -> [u8; 32] {
    sponge256(data, 0x06)
}
