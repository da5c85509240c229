//! The protocol's hash functions, written from their standards.

mod blake2s;
mod keccak;
pub mod sha256;

pub use blake2s::blake2s256;
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
    exports.function("sha256", |call| digest(call, sha256))
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
}
