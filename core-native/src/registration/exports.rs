//! The registration grind as seen from JavaScript (core-native/ts/native/registration-pow.ts wraps it).

use super::{grind, Grind};
use crate::bn254::point::Affine;
use crate::napi::{Call, Exports};

pub fn register(exports: &Exports) -> Result<(), String> {
    // registrationGrind(G, secretKey, nonce, template, powBits, attempts, out) → whether out holds a signature.
    exports.function("registrationGrind", |call: &Call| {
        let g = Affine::from_bytes(call.bytes(0, "G")?).map_err(|e| format!("G: {e}"))?;
        let pow_bits = call.index(4, "powBits")?;
        let task = Grind {
            g: &g,
            secret_key: call.bytes_exact(1, "secret key", 32)?,
            nonce: call.bytes_exact(2, "nonce", 32)?,
            template: call.bytes(3, "registration encoding")?,
            pow_bits: u32::try_from(pow_bits)
                .map_err(|_| format!("proof-of-work bits must be at most 256, got {pow_bits}"))?,
            attempts: call.index(5, "attempts")?,
        };
        let found = grind(&task, call.bytes_mut(6, "out")?)?;
        call.boolean(found)
    })
}
