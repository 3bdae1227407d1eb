//! The tied output head for a few rows at once: `logits[r, v] = h[r] · wte[v]`
//! with `wte` stored `[vocab, hidden]` (GPT-2's layout). Each vocabulary row is
//! loaded once for up to four hidden rows, so four lanes cost about one pass
//! over the 154 MB of distilgpt2's head instead of four.
//!
//! Used in wasm, where candle's gemm runs on one thread; natively candle's
//! threaded gemm wins. The portable path (tests, non-SIMD builds) adds in the
//! same order as the SIMD one: four partial sums, then `(a0 + a1) + (a2 + a3)`.

const LANES: usize = 4;

/// `h`: `rows × d`; `w`: `vocab × d`; returns `rows × vocab`.
pub fn logits(h: &[f32], rows: usize, w: &[f32], d: usize) -> Vec<f32> {
    let vocab = w.len() / d;
    let mut out = vec![0f32; rows * vocab];
    for (chunk, hs) in h.chunks(LANES * d).enumerate() {
        let n = hs.len() / d;
        let r0 = chunk * LANES;
        for v in 0..vocab {
            let wv = &w[v * d..(v + 1) * d];
            let sums = dot_rows(hs, n, wv, d);
            for (i, s) in sums.iter().take(n).enumerate() {
                out[(r0 + i) * vocab + v] = *s;
            }
        }
    }
    out
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn dot_rows(hs: &[f32], n: usize, wv: &[f32], d: usize) -> [f32; LANES] {
    use core::arch::wasm32::*;
    let mut acc = [f32x4_splat(0.0); LANES];
    let blocks = d / 4;
    for b in 0..blocks {
        // SAFETY: `b * 4 + 3 < d` for the slices' lengths checked by the caller's chunking.
        let wq = unsafe { v128_load(wv.as_ptr().add(b * 4) as *const v128) };
        for (r, a) in acc.iter_mut().enumerate().take(n) {
            let hq = unsafe { v128_load(hs.as_ptr().add(r * d + b * 4) as *const v128) };
            *a = f32x4_add(*a, f32x4_mul(hq, wq));
        }
    }
    let mut out = [0f32; LANES];
    for r in 0..n {
        let a = acc[r];
        let mut s = (f32x4_extract_lane::<0>(a) + f32x4_extract_lane::<1>(a)) + (f32x4_extract_lane::<2>(a) + f32x4_extract_lane::<3>(a));
        for k in blocks * 4..d {
            s += hs[r * d + k] * wv[k];
        }
        out[r] = s;
    }
    out
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn dot_rows(hs: &[f32], n: usize, wv: &[f32], d: usize) -> [f32; LANES] {
    let mut out = [0f32; LANES];
    let blocks = d / 4;
    for (r, o) in out.iter_mut().enumerate().take(n) {
        let hr = &hs[r * d..(r + 1) * d];
        let mut a = [0f32; 4];
        for b in 0..blocks {
            for l in 0..4 {
                a[l] += hr[b * 4 + l] * wv[b * 4 + l];
            }
        }
        let mut s = (a[0] + a[1]) + (a[2] + a[3]);
        for k in blocks * 4..d {
            s += hr[k] * wv[k];
        }
        *o = s;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_plain_matmul_for_any_number_of_rows() {
        let (d, vocab) = (10, 7);
        let w: Vec<f32> = (0..vocab * d).map(|i| ((i * 37 % 11) as f32 - 5.0) / 7.0).collect();
        for rows in [1, 3, 4, 5, 9] {
            let h: Vec<f32> = (0..rows * d).map(|i| ((i * 13 % 17) as f32 - 8.0) / 5.0).collect();
            let got = logits(&h, rows, &w, d);
            for r in 0..rows {
                for v in 0..vocab {
                    let want: f32 = (0..d).map(|k| h[r * d + k] * w[v * d + k]).sum();
                    assert!((got[r * vocab + v] - want).abs() < 1e-5, "row {r} vocab {v}");
                }
            }
        }
    }
}
