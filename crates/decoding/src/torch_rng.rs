//! torch's CPU random numbers where HF's results depend on them bit for bit:
//! `torch.Generator().manual_seed(s)` is an MT19937 seeded with the low 32
//! bits of `s`, and `torch.randperm(n)` (n < 2³²/20) is a Fisher–Yates shuffle
//! drawing `random() % (n − i)`. The watermark's green lists are made of these.

/// MT19937 as torch's `CPUGeneratorImpl` runs it (`random()`: one 32-bit draw).
pub struct Mt19937 {
    state: [u32; 624],
    index: usize,
}

impl Mt19937 {
    /// `manual_seed(seed)`: only the low 32 bits count.
    pub fn new(seed: u64) -> Mt19937 {
        let mut state = [0u32; 624];
        state[0] = seed as u32;
        for i in 1..624 {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, index: 624 }
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for i in 0..624 {
                let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % 624] & 0x7fff_ffff);
                let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
                self.state[i] = self.state[(i + 397) % 624] ^ (y >> 1) ^ mag;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }
}

/// The first `k` entries of `torch.randperm(n, generator=manual_seed(seed))`:
/// Fisher–Yates fixes entry `i` at step `i`, so `k` steps are enough.
pub fn randperm_prefix(n: usize, k: usize, seed: u64) -> Vec<u32> {
    let mut g = Mt19937::new(seed);
    let mut r: Vec<u32> = (0..n as u32).collect();
    for i in 0..k.min(n.saturating_sub(1)) {
        let z = g.next_u32() as usize % (n - i);
        r.swap(i, z + i);
    }
    r.truncate(k);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mt19937_gives_the_reference_stream() {
        // The C++ standard's check: the 10000th draw of mt19937 seeded 5489.
        let mut g = Mt19937::new(5489);
        let x = (0..10_000).map(|_| g.next_u32()).last().unwrap();
        assert_eq!(x, 4_123_659_995);
    }

    #[test]
    fn randperm_matches_torch() {
        // torch 2.15: torch.randperm(10, generator=torch.Generator().manual_seed(7)).
        assert_eq!(randperm_prefix(10, 10, 7), [5, 0, 3, 4, 1, 7, 9, 6, 8, 2]);
        // Seeds above 2³² keep their low 32 bits (torch.manual_seed(2**40 + 5)).
        assert_eq!(
            randperm_prefix(1000, 8, (1 << 40) + 5),
            [411, 49, 291, 695, 678, 515, 112, 606]
        );
        assert_eq!(
            randperm_prefix(50257, 4, 7_185_440_432),
            [41876, 29678, 27809, 32747]
        );
    }
}
