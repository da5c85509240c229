//! The protocol's hash functions, written from their standards.

mod blake2s;
mod keccak;
pub mod sha256;

pub use blake2s::{blake2s256, blake2s256_many};
pub use keccak::{keccak256, keccak_f1600, sha3_256, Keccak256Prefix};
pub use sha256::sha256;

#[cfg(not(test))]
pub fn register(exports: &crate::napi::Exports) -> Result<(), String> {
    use crate::napi::Call;
    fn digest(call: &Call, hash: fn(&[u8]) -> [u8; 32]) -> Result<crate::napi::Value, String> {
        call.buffer(&hash(call.bytes(0, "data")?))
    }
    exports.function("keccak256", |call| digest(call, keccak256))?;
    exports.function("sha3_256", |call| digest(call, sha3_256))?;
    exports.function("blake2s256", |call| digest(call, blake2s256))?;
    exports.function("blake2s256Many", blake2s256_many_call)?;
    exports.function("sha256", |call| digest(call, sha256))
}

/// `blake2s256Many(data, ends)`: `ends` holds the messages' end offsets as native-endian u32s (a Uint32Array's bytes).
#[cfg(not(test))]
fn blake2s256_many_call(call: &crate::napi::Call) -> Result<crate::napi::Value, String> {
    let data = call.bytes(0, "data")?;
    let raw_ends = call.bytes(1, "ends")?;
    if raw_ends.len() % 4 != 0 {
        return Err("ends must be whole 32-bit offsets".into());
    }
    let mut ends = Vec::with_capacity(raw_ends.len() / 4);
    let mut previous = 0;
    for raw in raw_ends.chunks_exact(4) {
        let end = u32::from_ne_bytes(raw.try_into().unwrap()) as usize;
        if end < previous || end > data.len() {
            return Err(format!("ends must not decrease nor pass the data's {} bytes", data.len()));
        }
        ends.push(end);
        previous = end;
    }
    call.buffer_with(ends.len() * 32, |out| blake2s256_many(data, &ends, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn published_vectors() {
        assert_eq!(hex(&keccak256(b"")), "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
        assert_eq!(hex(&keccak256(b"hello")), "1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8");
        assert_eq!(hex(&sha3_256(b"abc")), "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
        assert_eq!(hex(&sha256(b"abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        // 56 bytes: the length no longer fits in the first padded block.
        let two_blocks = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        assert_eq!(hex(&sha256(two_blocks)), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        assert_eq!(hex(&blake2s256(b"abc")), "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982");
        assert_eq!(hex(&blake2s256(b"")), "69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9");
    }

    #[test]
    fn many_digests_match_one_at_a_time() {
        let data: Vec<u8> = (0..300u32).map(|i| (i * 131 + 1) as u8).collect();
        let ends = [0, 3, 3, 67, 131, 300];
        let mut out = vec![0u8; 32 * ends.len()];
        blake2s256_many(&data, &ends, &mut out);
        let mut start = 0;
        for (i, &end) in ends.iter().enumerate() {
            assert_eq!(out[32 * i..32 * i + 32], blake2s256(&data[start..end]));
            start = end;
        }
    }
}
