//! BN254 G1 (docs/cryptography.md: curve, HashToPoint, generators): field, points, scalar multiplication, MSM, HashToPoint, generators.

pub mod fp;
pub mod glv;
pub mod hash_to_point;
mod inversion;
pub mod mul;
pub mod point;
pub mod projective;
pub mod scalar;

#[cfg(not(test))]
mod exports;
#[cfg(not(test))]
pub use exports::register;

#[cfg(test)]
mod tests;
