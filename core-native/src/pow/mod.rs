//! AstroBWTv3 proof of work with Umbra's op table (docs/protocol.md § Proof of work), a
//! byte-exact port of the TypeScript reference in core-native/ts/pow/astrobwtv3.ts:
//! SHA-256 → Salsa20 expansion to 256 bytes → RC4 → up to 277 rounds of branchy byte operations mixed with FNV-1a,
//! XXH64 and SipHash → suffix array (SA-IS) of the ~68 KB output → SHA-256 of the suffix array (int32 LE).
//!
//! The ~350 KB of scratch (output buffer, suffix array, SA-IS buffers) is allocated once per thread: the miner hashes
//! from worker threads, each with its own copy.

mod hashes64;
mod lms_sort;
mod optable;
mod rc4;
mod sais;
mod salsa20;
mod sha256;

use hashes64::{fnv1a64, siphash24, xxh64};
use optable::OP_TABLE;
use rc4::Rc4;
use std::cell::RefCell;

const MAX_TRIES: usize = 277;

/// Primitive `id` (docs/protocol.md § Proof of work, the primitives table) applied to byte x; `s2` is S[p2] read live.
#[inline(always)]
fn primitive(id: u8, x: u8, s2: u8) -> u8 {
    match id & 15 {
        0 => x.wrapping_add(x),
        1 => x.wrapping_sub(x ^ 97),
        2 => x.wrapping_mul(x),
        3 => x ^ s2,
        4 => !x,
        5 => x & s2,
        6 => x << (x & 3),
        7 => x >> (x & 3),
        8 => x.reverse_bits(),
        9 => x ^ x.count_ones() as u8,
        10 => x.rotate_left((x & 7) as u32),
        11 => x.rotate_left(1),
        12 => x ^ x.rotate_left(2),
        13 => x.rotate_left(3),
        14 => x ^ x.rotate_left(4),
        _ => x.rotate_left(5),
    }
}

/// Per-thread buffers, reused from hash to hash.
struct Scratch {
    output: Vec<u8>,
    sa: Vec<u32>,
    sais: sais::Workspace,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch {
        output: vec![0; MAX_TRIES * 256],
        sa: Vec::with_capacity(MAX_TRIES * 256),
        sais: sais::Workspace::default(),
    });
}

/// The branchy rounds: fills `output` with one 256-byte state per round and returns how many bytes of it the
/// suffix array covers.
fn rounds(input: &[u8], output: &mut [u8]) -> usize {
    let key = sha256::sha256(input);
    let mut s = [0u8; 256];
    salsa20::keystream(&key, &[0; 8], &mut s);
    let mut rc4 = Rc4::new(&s);
    rc4.xor(&mut s);
    let mut lh = fnv1a64(&s);
    let mut prev = lh;
    let mut tries = 0usize;
    loop {
        tries += 1;
        let sw = prev ^ lh ^ tries as u64;
        let op = (sw & 0xff) as usize;
        let mut p1 = ((sw >> 8) & 0xff) as usize;
        let mut p2 = ((sw >> 16) & 0xff) as usize;
        if p1 > p2 {
            std::mem::swap(&mut p1, &mut p2);
        }
        if p2 - p1 > 32 {
            p2 = p1 + ((p2 - p1) & 0x1f);
        }
        if op >= 254 {
            rc4 = Rc4::new(&s);
        }
        let block = &OP_TABLE[op.min(254) * 4..op.min(254) * 4 + 4];
        for i in p1..p2 {
            let mut x = s[i];
            for &id in block {
                x = primitive(id, x, s[p2]);
            }
            s[i] = x;
            if op == 0 {
                let (a, b) = (s[p1], s[p2]);
                s[p2] = a.reverse_bits();
                s[p1] = b.reverse_bits();
            } else if op == 253 {
                prev = prev.wrapping_add(lh);
                lh = xxh64(&s[..p2]);
            }
        }
        let d = s[p1].wrapping_sub(s[p2]);
        if d < 0x10 {
            prev = prev.wrapping_add(lh);
            lh = xxh64(&s[..p2]);
        }
        if d < 0x20 {
            prev = prev.wrapping_add(lh);
            lh = fnv1a64(&s[..p2]);
        }
        if d < 0x30 {
            prev = prev.wrapping_add(lh);
            lh = siphash24(tries as u64, prev, &s[..p2]);
        }
        if d <= 0x40 {
            rc4.xor(&mut s);
        }
        s[255] ^= s[p1] ^ s[p2];
        output[(tries - 1) * 256..tries * 256].copy_from_slice(&s);
        if tries > MAX_TRIES - 1 || (s[255] >= 0xf0 && tries > 260) {
            break;
        }
    }
    (tries - 4) * 256 + ((((s[253] as usize) << 8) | s[254] as usize) & 0x3ff)
}

/// The AstroBWTv3 hash of `input`.
pub fn astrobwtv3(input: &[u8]) -> [u8; 32] {
    SCRATCH.with(|scratch| {
        let Scratch { output, sa, sais: workspace } = &mut *scratch.borrow_mut();
        let length = rounds(input, output);
        sa.resize(length, 0); // no need to clear what stays: suffix_array writes every entry
        sais::suffix_array(&output[..length], sa, workspace);
        for v in sa.iter_mut() {
            *v = v.to_le(); // no-op on little-endian machines
        }
        // SAFETY: u32 has no padding and every byte pattern is a valid u8; the length covers exactly the array.
        let bytes = unsafe { std::slice::from_raw_parts(sa.as_ptr() as *const u8, length * 4) };
        sha256::sha256(bytes)
    })
}

#[cfg(not(test))]
pub fn register(exports: &crate::napi::Exports) -> Result<(), String> {
    // powHashInto(input, out): writes the 32-byte hash into `out` and returns undefined (no allocation per call).
    exports.function("powHashInto", |call| {
        if call.bytes_mut(1, "out")?.len() != 32 {
            return Err("out must be 32 bytes".into());
        }
        let hash = astrobwtv3(call.bytes(0, "input")?);
        // Taken only now, after the input view is gone: the caller may pass the same buffer twice.
        call.bytes_mut(1, "out")?.copy_from_slice(&hash);
        call.undefined()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn hashes64_published_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
        assert_eq!(xxh64(b""), 0xef46db3751d8e999);
        assert_eq!(xxh64(b"a"), 0xd24ec4f1a98c6e5b);
        assert_eq!(xxh64(b"abc"), 0x44bc2cf5ad770999);
        assert_eq!(xxh64(b"Nobody inspects the spammish repetition"), 0xfbcea83c8a378bf1);
        let (k0, k1) = (0x0706050403020100, 0x0f0e0d0c0b0a0908);
        let message: Vec<u8> = (0..64).collect();
        assert_eq!(siphash24(k0, k1, &message[..0]), 0x726fdb47dd0e0e31);
        assert_eq!(siphash24(k0, k1, &message[..8]), 0x93f5f5799a932462);
        assert_eq!(siphash24(k0, k1, &message[..15]), 0xa129ca6149be45e5);
    }

    #[test]
    fn rc4_rfc6229_stream_persists() {
        let mut rc4 = Rc4::new(&[1, 2, 3, 4, 5]);
        let mut first = [0u8; 8];
        rc4.xor(&mut first);
        assert_eq!(hex(&first), "b2396305f03dc027");
        let mut next = [0u8; 8];
        rc4.xor(&mut next);
        assert_eq!(hex(&next), "ccc3524a0a1118a8");
    }

    #[test]
    fn salsa20_matches_the_typescript_reference() {
        // @noble/ciphers salsa20(key 00..1f, nonce 0^8) over 256 zero bytes: bytes 0..32 and 192..256.
        let key: [u8; 32] = std::array::from_fn(|i| i as u8);
        let mut stream = [0u8; 256];
        salsa20::keystream(&key, &[0; 8], &mut stream);
        assert_eq!(hex(&stream[..32]), "b580f7671c76e5f7441af87c146d6b513910dc8b4146ef1b3211cf12af4a4b49");
        assert_eq!(
            hex(&stream[192..]),
            "9b5b5406977968e7f472de2924effd0e8ea74c954d23fcc21e4ed87bba9e0f79d1477d1810368f02259f7f53966f91ceb50ecd3da10363e7f08eeab83a0ef71a"
        );
    }

    #[test]
    fn primitives() {
        assert_eq!(primitive(0, 200, 0), 144);
        assert_eq!(primitive(2, 16, 0), 0);
        assert_eq!(primitive(3, 0xf0, 0x0f), 0xff);
        assert_eq!(primitive(4, 0, 0), 255);
        assert_eq!(primitive(8, 0b1100_1010, 0), 0b0101_0011);
        assert_eq!(primitive(9, 0xff, 0), 0xf7);
        assert_eq!(primitive(11, 0x81, 0), 0x03);
        assert_eq!(primitive(15, 0x01, 0), 0x20);
    }

    #[test]
    fn vectors_from_the_typescript_reference() {
        assert_eq!(hex(&astrobwtv3(&[0; 48])), "734c93e1ac547f61197ce296c30a7c51b0960e68dcd4418c56af5dadc0e314a8");
        assert_eq!(hex(&astrobwtv3(b"")), "bf22fab5cc05786f0dc2ad2309430c3c6cb0f8a950402fc653520837e7267b62");
        assert_eq!(hex(&astrobwtv3(b"abc")), "0d4da6c7710bf7ff0b2723e80d81dbbfa96c62e57a03a5165773ecd4ca352ca0");
        let ramp: Vec<u8> = (0..200).collect();
        assert_eq!(hex(&astrobwtv3(&ramp)), "d12866a4db1d70dc40edad7ea87aa0c7ac5b370492429bf58c2f4d360d2bda14");
    }

    #[test]
    fn threads_hash_independently() {
        let expected = astrobwtv3(&[7; 48]);
        let handles: Vec<_> = (0..4).map(|_| std::thread::spawn(|| astrobwtv3(&[7; 48]))).collect();
        for handle in handles {
            assert_eq!(handle.join().unwrap(), expected);
        }
    }
}

#[cfg(test)]
mod profile {
    use super::*;
    use std::time::Instant;

    /// `cargo test --release profile -- --ignored --nocapture`: per-stage time (min and median over 300 inputs).
    #[test]
    #[ignore]
    fn stages() {
        let mut output = vec![0u8; MAX_TRIES * 256];
        let mut ws = sais::Workspace::default();
        let mut sa = Vec::new();
        let mut times: [Vec<f64>; 4] = Default::default();
        for i in 0..300u32 {
            let mut input = [0u8; 48];
            input[44..].copy_from_slice(&i.to_be_bytes());
            let t0 = Instant::now();
            let length = rounds(&input, &mut output);
            let t1 = Instant::now();
            sa.resize(length, 0);
            sais::suffix_array(&output[..length], &mut sa, &mut ws);
            let t2 = Instant::now();
            let bytes = unsafe { std::slice::from_raw_parts(sa.as_ptr() as *const u8, length * 4) };
            std::hint::black_box(sha256::sha256(bytes));
            let t3 = Instant::now();
            for (k, d) in [t1 - t0, t2 - t1, t3 - t2, t3 - t0].iter().enumerate() {
                times[k].push(d.as_secs_f64() * 1e6);
            }
        }
        for (name, mut t) in ["rounds", "suffix array", "sha256", "total"].into_iter().zip(times) {
            t.sort_by(|a, b| a.partial_cmp(b).unwrap());
            eprintln!("{name:>12}: min {:7.1} us, median {:7.1} us", t[0], t[t.len() / 2]);
        }
        eprintln!("recursion levels: {}", ws.depth());
    }

    /// This thread's CPU time in seconds: on a shared machine it counts only the time this thread actually ran.
    fn thread_cpu_seconds() -> f64 {
        #[repr(C)]
        struct Timespec {
            seconds: i64,
            nanoseconds: i64,
        }
        extern "C" {
            fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        let mut time = Timespec { seconds: 0, nanoseconds: 0 };
        // SAFETY: clock_gettime writes one timespec (two 64-bit fields on x86-64 Linux) into `time`.
        assert_eq!(unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut time) }, 0);
        time.seconds as f64 + time.nanoseconds as f64 * 1e-9
    }

    /// `cargo test --release suffix_array_speed -- --ignored --nocapture`: suffix array CPU time over 64 real
    /// inputs, a random text of the same length and a periodic one (where the direct LMS sort gives up and SA-IS
    /// recurses), mean of the best of 5 passes.
    #[test]
    #[ignore]
    fn suffix_array_speed() {
        let inputs: Vec<Vec<u8>> = (0..64u32)
            .map(|i| {
                let mut input = [0u8; 48];
                input[44..].copy_from_slice(&i.to_be_bytes());
                let mut output = vec![0u8; MAX_TRIES * 256];
                let length = rounds(&input, &mut output);
                output.truncate(length);
                output
            })
            .collect();
        let mut x = 1u64;
        let random: Vec<Vec<u8>> = vec![(0..inputs[0].len())
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                (x >> 56) as u8
            })
            .collect()];
        let mut sa = Vec::new();
        let mut ws = sais::Workspace::default();
        let periodic: Vec<Vec<u8>> = vec![(0..inputs[0].len()).map(|i| [3, 1, 2][i % 3]).collect()];
        for (name, texts) in [("astro", &inputs), ("random", &random), ("periodic", &periodic)] {
            let best = (0..5)
                .map(|_| {
                    let start = thread_cpu_seconds();
                    for _ in 0..64 / texts.len() {
                        for text in texts {
                            sa.resize(text.len(), 0);
                            sais::suffix_array(text, &mut sa, &mut ws);
                        }
                    }
                    (thread_cpu_seconds() - start) / 64.0 * 1e6
                })
                .fold(f64::INFINITY, f64::min);
            eprintln!("suffix array, {name} texts: {best:.1} us CPU time each");
        }
    }
}
