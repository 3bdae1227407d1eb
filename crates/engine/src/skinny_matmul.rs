//! `x · wᵀ` for a few rows of `x` against a weight stored `[n, k]` (each output
//! column's weights contiguous): GPT-2's tied head `wte` as stored, and the
//! blocks' Conv1D weights once transposed at load. The weights may be f32 or
//! F16/BF16 as the checkpoint stored them ([`Weight`]): 16-bit weights are
//! widened as they are read, which is exact, so they cost half the memory and
//! half the bytes per step and give the sums the f32 copy would. Each weight row is loaded
//! once for up to four rows of `x`, so four lanes cost about one pass over the
//! weights instead of four.
//!
//! Used in wasm, where candle's gemm runs on one thread and is far from
//! memory-bound for so few rows; natively candle's threaded gemm wins. The row
//! and column counts of a block are constants, so the accumulators stay in
//! SIMD registers (at most 8 accumulators + their operands, within x86's 16);
//! which shape a row count takes is measured (`ONE_COLUMN_MAX_K`), and no
//! shape changes a column's sum, only how many are computed at once. The
//! portable path (tests, non-SIMD builds) adds in the same order as
//! the SIMD one: four partial sums, then `(a0 + a1) + (a2 + a3)`, then the tail.

/// Rows of `x` that share one pass over the weights.
pub const ROWS: usize = 4;

use ntl_parallel::Disjoint;
use std::ops::Range;

/// An element of a weight matrix: f32, or a 16-bit float the kernel widens.
pub trait Weight: Copy + Sync {
    /// The value as f32 (exact for every element type here).
    fn to_f32(self) -> f32;

    /// Four consecutive weights from `p`, widened to f32.
    ///
    /// # Safety
    /// `p..p + 4` must be in bounds.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    unsafe fn load4(p: *const Self) -> core::arch::wasm32::v128;
}

impl Weight for f32 {
    fn to_f32(self) -> f32 {
        self
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    unsafe fn load4(p: *const f32) -> core::arch::wasm32::v128 {
        // SAFETY: the caller keeps `p..p + 4` in bounds.
        unsafe { core::arch::wasm32::v128_load(p as *const core::arch::wasm32::v128) }
    }
}

impl Weight for half::bf16 {
    fn to_f32(self) -> f32 {
        half::bf16::to_f32(self)
    }

    /// A bf16 is an f32's top half: widening is a shift.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    unsafe fn load4(p: *const half::bf16) -> core::arch::wasm32::v128 {
        use core::arch::wasm32::*;
        // SAFETY: the caller keeps `p..p + 4` (8 bytes) in bounds.
        let h = unsafe { v128_load64_zero(p as *const u64) };
        i32x4_shl(u32x4_extend_low_u16x8(h), 16)
    }
}

impl Weight for half::f16 {
    fn to_f32(self) -> f32 {
        half::f16::to_f32(self)
    }

    /// Exponent and mantissa shifted into f32's places read as the value
    /// times 2⁻¹¹² (subnormal halves too, as f32 subnormals), so one exact
    /// multiply by 2¹¹² scales them back; infinities and NaNs get f32's
    /// all-ones exponent instead. Equal to `half`'s conversion but for a
    /// signalling NaN, which stays signalling (any NaN weight makes NaN sums).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    unsafe fn load4(p: *const half::f16) -> core::arch::wasm32::v128 {
        use core::arch::wasm32::*;
        // SAFETY: the caller keeps `p..p + 4` (8 bytes) in bounds.
        let u = u32x4_extend_low_u16x8(unsafe { v128_load64_zero(p as *const u64) });
        let sign = i32x4_shl(v128_and(u, u32x4_splat(0x8000)), 16);
        let bits = i32x4_shl(v128_and(u, u32x4_splat(0x7fff)), 13);
        let finite = f32x4_mul(bits, f32x4_splat(f32::from_bits(0x7780_0000))); // 2^112
        let inf_nan = v128_or(bits, u32x4_splat(0x7f80_0000));
        let special = u32x4_ge(bits, u32x4_splat(0x1f << 23)); // exponent 31
        v128_or(v128_bitselect(inf_nan, finite, special), sign)
    }
}

/// `x`: `rows × k`; `w`: `n × k`; returns `rows × n`. The output columns are
/// shared out over the worker's threads (`ntl_parallel::split`); each column's sum
/// is computed the same way whichever thread does it.
pub fn matmul_nt<W: Weight>(x: &[f32], rows: usize, w: &[W], k: usize) -> Vec<f32> {
    matmul_nt_in_parts(x, rows, w, k, &|n, f| {
        ntl_parallel::split(n, MIN_COLUMNS_PER_PART, f)
    })
}

/// Fewer columns than this per thread are not worth waking a helper for
/// (≈ 0.1 ms of work at distilgpt2's width and four rows).
const MIN_COLUMNS_PER_PART: usize = 128;

/// Up to this `k`, three or four rows of `x` (≤ 16 KB) stay in L1 while one
/// weight row at a time streams past them: the weights are then read as one
/// sequential stream, measured faster than two (the head's 4-row pass in
/// Chromium, medians: 22.8 → 16.5 ms). Longer rows (GPT-2's `mlp.c_proj`,
/// `k` = 3072) would be read again from L2 for every column, so they keep
/// two columns per pass. One row takes eight columns: eight weight streams
/// at once read faster than four (11.9 → 9.7 ms over `wte`).
const ONE_COLUMN_MAX_K: usize = 1024;

type Splitter<'a> = &'a dyn Fn(usize, &(dyn Fn(Range<usize>) + Sync));

/// [`matmul_nt`] with the column split given (tests cut it every which way).
fn matmul_nt_in_parts<W: Weight>(
    x: &[f32],
    rows: usize,
    w: &[W],
    k: usize,
    split: Splitter,
) -> Vec<f32> {
    assert!(
        k > 0 && x.len() == rows * k && w.len().is_multiple_of(k),
        "skinny_matmul: shapes do not match"
    );
    let n = w.len() / k;
    let mut out = vec![0f32; rows * n];
    let dst = Disjoint::new(&mut out);
    split(n, &|columns| {
        for (chunk, xs) in x.chunks(ROWS * k).enumerate() {
            let rows = Rows {
                buf: &dst,
                first: chunk * ROWS,
                n,
            };
            match xs.len() / k {
                4 if k <= ONE_COLUMN_MAX_K => pass::<W, 4, 1>(xs, w, k, columns.clone(), rows),
                4 => pass::<W, 4, 2>(xs, w, k, columns.clone(), rows),
                3 if k <= ONE_COLUMN_MAX_K => pass::<W, 3, 1>(xs, w, k, columns.clone(), rows),
                3 => pass::<W, 3, 2>(xs, w, k, columns.clone(), rows),
                2 => pass::<W, 2, 4>(xs, w, k, columns.clone(), rows),
                _ => pass::<W, 1, 8>(xs, w, k, columns.clone(), rows),
            }
        }
    });
    out
}

/// Output rows `first..` (of `n` columns each) in the buffer the threads share.
#[derive(Clone, Copy)]
struct Rows<'a, 'b> {
    buf: &'a Disjoint<'b, f32>,
    first: usize,
    n: usize,
}

/// `columns` of the output for `R` rows, `C` columns at a time.
fn pass<W: Weight, const R: usize, const C: usize>(
    xs: &[f32],
    w: &[W],
    k: usize,
    columns: Range<usize>,
    out: Rows,
) {
    let mut j = columns.start;
    while j + C <= columns.end {
        let s = block::<W, R, C>(xs, &w[j * k..(j + C) * k], k);
        store(&s, j, out);
        j += C;
    }
    while j < columns.end {
        let s = block::<W, R, 1>(xs, &w[j * k..(j + 1) * k], k);
        store(&s, j, out);
        j += 1;
    }
}

fn store<const R: usize, const C: usize>(s: &[[f32; C]; R], j: usize, out: Rows) {
    for (r, row) in s.iter().enumerate() {
        let at = (out.first + r) * out.n + j;
        // SAFETY: only this thread writes columns `j..j + C` (its part of the split).
        unsafe { out.buf.slice(at..at + C) }.copy_from_slice(row);
    }
}

/// Dot products of `R` rows of `x` (`R × k`) with `C` weight rows (`C × k`).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn block<W: Weight, const R: usize, const C: usize>(x: &[f32], w: &[W], k: usize) -> [[f32; C]; R] {
    use core::arch::wasm32::*;
    assert!(x.len() >= R * k && w.len() >= C * k);
    let blocks = k / 4;
    let mut acc = [[f32x4_splat(0.0); C]; R];
    for b in 0..blocks {
        let mut wq = [f32x4_splat(0.0); C];
        for (c, q) in wq.iter_mut().enumerate() {
            // SAFETY: `c * k + b * 4 + 3 < C * k <= w.len()` (asserted above).
            *q = unsafe { W::load4(w.as_ptr().add(c * k + b * 4)) };
        }
        for (r, a) in acc.iter_mut().enumerate() {
            // SAFETY: `r * k + b * 4 + 3 < R * k <= x.len()` (asserted above).
            let xq = unsafe { v128_load(x.as_ptr().add(r * k + b * 4) as *const v128) };
            for c in 0..C {
                a[c] = f32x4_add(a[c], f32x4_mul(xq, wq[c]));
            }
        }
    }
    let mut out = [[0f32; C]; R];
    for r in 0..R {
        for c in 0..C {
            let a = acc[r][c];
            let mut s = (f32x4_extract_lane::<0>(a) + f32x4_extract_lane::<1>(a))
                + (f32x4_extract_lane::<2>(a) + f32x4_extract_lane::<3>(a));
            for i in blocks * 4..k {
                s += x[r * k + i] * w[c * k + i].to_f32();
            }
            out[r][c] = s;
        }
    }
    out
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn block<W: Weight, const R: usize, const C: usize>(x: &[f32], w: &[W], k: usize) -> [[f32; C]; R] {
    let blocks = k / 4;
    let mut out = [[0f32; C]; R];
    for r in 0..R {
        let xr = &x[r * k..(r + 1) * k];
        for c in 0..C {
            let wc = &w[c * k..(c + 1) * k];
            let mut a = [0f32; 4];
            for b in 0..blocks {
                for l in 0..4 {
                    a[l] += xr[b * 4 + l] * wc[b * 4 + l].to_f32();
                }
            }
            let mut s = (a[0] + a[1]) + (a[2] + a[3]);
            for i in blocks * 4..k {
                s += xr[i] * wc[i].to_f32();
            }
            out[r][c] = s;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_plain_matmul_for_any_number_of_rows_and_columns() {
        // k past ONE_COLUMN_MAX_K takes the two-column shape for three and four rows.
        for (k, n) in [(10, 7), (8, 9), (3, 5), (12, 1), (1030, 19)] {
            let w: Vec<f32> = (0..n * k)
                .map(|i| ((i * 37 % 11) as f32 - 5.0) / 7.0)
                .collect();
            for rows in [1, 2, 3, 4, 5, 9] {
                let x: Vec<f32> = (0..rows * k)
                    .map(|i| ((i * 13 % 17) as f32 - 8.0) / 5.0)
                    .collect();
                let got = matmul_nt(&x, rows, &w, k);
                for r in 0..rows {
                    for v in 0..n {
                        let want: f32 = (0..k).map(|i| x[r * k + i] * w[v * k + i]).sum();
                        assert!(
                            (got[r * n + v] - want).abs() < 1e-5,
                            "k {k} n {n} rows {rows}: row {r} column {v}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn any_cut_of_the_columns_gives_the_same_bits() {
        let (k, n) = (37, 101);
        let w: Vec<f32> = (0..n * k)
            .map(|i| ((i * 37 % 11) as f32 - 5.0) / 7.0)
            .collect();
        for rows in [1, 2, 3, 4, 6] {
            let x: Vec<f32> = (0..rows * k)
                .map(|i| ((i * 13 % 17) as f32 - 8.0) / 5.0)
                .collect();
            let whole = matmul_nt_in_parts(&x, rows, &w, k, &|n, f| f(0..n));
            for parts in [2, 3, 7] {
                // Parts run out of order, as threads would finish them.
                let cut = matmul_nt_in_parts(&x, rows, &w, k, &|n, f| {
                    for p in (0..parts).rev() {
                        f(n * p / parts..n * (p + 1) / parts)
                    }
                });
                assert_eq!(
                    cut.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    whole.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    "rows {rows} parts {parts}"
                );
            }
        }
    }
}
