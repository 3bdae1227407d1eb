//! torch's CPU random numbers where HF's results depend on them bit for bit:
//! `torch.Generator().manual_seed(s)` is an MT19937 seeded with the low 32
//! bits of `s`, and `torch.randperm(n)` (n < 2³²/20) is a Fisher–Yates shuffle
//! drawing `random() % (n − i)`. The watermark's green lists are made of these.

use rand_mt::Mt as Mt19937;

/// The first `k` entries of `torch.randperm(n, generator=manual_seed(seed))`:
/// Fisher–Yates fixes entry `i` at step `i`, so `k` steps are enough.
pub fn randperm_prefix(n: usize, k: usize, seed: u64) -> Vec<u32> {
    // `manual_seed(seed)`: only the low 32 bits count.
    let mut g = Mt19937::new(seed as u32);
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
