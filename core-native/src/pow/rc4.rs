//! RC4 with the standard key schedule. The stream position persists across `xor` calls (AstroBWTv3 relies on it).

pub struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rc4 {
    pub fn new(key: &[u8]) -> Self {
        let mut s = [0u8; 256];
        for (k, v) in s.iter_mut().enumerate() {
            *v = k as u8;
        }
        let mut j = 0u8;
        for k in 0..256 {
            j = j.wrapping_add(s[k]).wrapping_add(key[k % key.len()]);
            s.swap(k, j as usize);
        }
        Rc4 { s, i: 0, j: 0 }
    }

    /// XORs the next bytes of the key stream into `data` in place.
    #[inline]
    pub fn xor(&mut self, data: &mut [u8]) {
        let s = &mut self.s;
        let (mut i, mut j) = (self.i, self.j);
        for byte in data.iter_mut() {
            i = i.wrapping_add(1);
            let si = s[i as usize];
            j = j.wrapping_add(si);
            let sj = s[j as usize];
            s[i as usize] = sj;
            s[j as usize] = si;
            *byte ^= s[si.wrapping_add(sj) as usize];
        }
        self.i = i;
        self.j = j;
    }
}
