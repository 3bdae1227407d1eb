//! `x · wᵀ` for a few rows of `x`, the weights (`n` output columns of `k`
//! inputs each) packed at load into panels of [`PANEL`] columns: panel `p`
//! holds columns `8p..8p + 8` as `[k][8]`, each input's eight weights side by
//! side. A pass reads a panel as one sequential stream and multiplies every
//! weight by each row's input, broadcast: four rows cost one read of the
//! weights, and each input step is 16 SIMD operations for 6 loads with no
//! horizontal sums (the old layout, a column's weights contiguous, needed
//! one per row and column). In the page's single-threaded worker the
//! four-lane step went 72–74 → 58–61 ms and the one-lane step 46 → 27–30 ms
//! (BENCHMARKS.md, levers).
//!
//! The weights may be f32 or F16/BF16 as the checkpoint stored them
//! ([`Weight`]): 16-bit weights are widened as they are read, which is
//! exact, so they cost half the memory and half the bytes per step and give
//! the sums the f32 copy would.
//!
//! Each output is summed in input order, unfused — each block of
//! [`SUM_BLOCK`] inputs from zero, `((0 + x₀w₀) + x₁w₁) + …`, then the
//! blocks' sums in turn onto the total (from zero) — whatever
//! the row count, the shape of the pass or the thread that computes it: a
//! lane's logits have the same bits alone or beside three others, and the
//! portable path (tests, non-SIMD builds) adds exactly as the SIMD one.
//!
//! Used in wasm, where candle's gemm runs on one thread and is far from
//! memory-bound for so few rows; natively candle's threaded gemm wins.

use ntl_parallel::Disjoint;
use std::ops::Range;

/// Rows of `x` that share one pass over the weights.
pub const ROWS: usize = 4;

/// Output columns per panel: two SIMD vectors, so four rows keep eight
/// accumulators (and their operands within x86's sixteen registers).
pub const PANEL: usize = 8;

/// An element of a weight matrix: f32, or a 16-bit float the kernel widens.
pub trait Weight: Copy + Sync + Default {
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

    /// [`FiniteF16`]'s widening, then infinities and NaNs (which it brings
    /// out at 2¹⁶ or above: no finite half is past 65504) get f32's all-ones
    /// exponent instead. Equal to `half`'s conversion but for a signalling
    /// NaN, which stays signalling (any NaN weight makes NaN sums).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    unsafe fn load4(p: *const half::f16) -> core::arch::wasm32::v128 {
        use core::arch::wasm32::*;
        // SAFETY: `FiniteF16` is a transparent `f16`; the caller keeps
        // `p..p + 4` in bounds.
        let value = unsafe { FiniteF16::load4(p as *const FiniteF16) };
        let special = f32x4_ge(f32x4_abs(value), f32x4_splat(65536.0));
        v128_bitselect(v128_or(value, u32x4_splat(0x7F80_0000)), value, special)
    }
}

/// An f16 weight known to be finite: a matrix with no infinity or NaN in it
/// (checked once at load) skips `f16`'s check for them, which cost a third
/// of a single-lane F16 step (SmolLM2-shaped, one lane 11.9 → 18.2 tok/s).
#[derive(Clone, Copy, Default, Debug, PartialEq)]
#[repr(transparent)]
pub struct FiniteF16(half::f16);

impl FiniteF16 {
    /// `None` for an infinity or a NaN.
    pub fn new(h: half::f16) -> Option<FiniteF16> {
        h.is_finite().then_some(FiniteF16(h))
    }

    /// The weights as finite halves, or back unchanged when one is not.
    pub fn all(w: Vec<half::f16>) -> Result<Vec<FiniteF16>, Vec<half::f16>> {
        if w.iter().all(|h| h.is_finite()) {
            Ok(w.into_iter().map(FiniteF16).collect())
        } else {
            Err(w)
        }
    }
}

impl Weight for FiniteF16 {
    fn to_f32(self) -> f32 {
        self.0.to_f32()
    }

    /// The half sign-extended to 32 bits and shifted so its exponent and
    /// mantissa sit in f32's places and its sign in f32's: that reads as the
    /// value times 2⁻¹¹² (subnormal halves too, as f32 subnormals), and one
    /// exact multiply by 2¹¹² scales it back. Four operations, where a BF16
    /// weight takes one (a shift): an F16 lane is still slower, see
    /// BENCHMARKS.md.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    unsafe fn load4(p: *const FiniteF16) -> core::arch::wasm32::v128 {
        use core::arch::wasm32::*;
        // SAFETY: the caller keeps `p..p + 4` (8 bytes) in bounds.
        let s = i32x4_extend_low_i16x8(unsafe { v128_load64_zero(p as *const u64) });
        let bits = v128_and(i32x4_shl(s, 13), u32x4_splat(0x8FFF_E000));
        f32x4_mul(bits, f32x4_splat(f32::from_bits(0x7780_0000))) // 2^112
    }
}

/// A weight matrix of `n` output columns over `k` inputs, in panels (see
/// the module's notes).
pub struct Panels<W> {
    /// The full panels, one after another.
    full: Vec<W>,
    /// The last `n % PANEL` columns as one panel padded with zeros (empty
    /// when `n` is a multiple of [`PANEL`]); their padding is never stored.
    tail: Vec<W>,
    n: usize,
    k: usize,
}

impl<W: Weight> Panels<W> {
    /// From `[n, k]` (each column's weights contiguous: `nn.Linear`, a tied
    /// embedding), rearranged in place: eight columns fill exactly their
    /// panel's room, so beside the matrix there is only one panel of
    /// scratch, and packing the embedding never holds two copies of it.
    pub fn from_rows(mut w: Vec<W>, n: usize, k: usize) -> Panels<W> {
        assert!(k > 0 && w.len() == n * k, "panels: shapes do not match");
        let size = PANEL * k;
        let full = n / PANEL;
        let mut scratch = vec![W::default(); size];
        for block in w[..full * size].chunks_exact_mut(size) {
            scratch.copy_from_slice(block);
            for (c, column) in scratch.chunks_exact(k).enumerate() {
                for (i, &v) in column.iter().enumerate() {
                    block[i * PANEL + c] = v;
                }
            }
        }
        let mut tail = Vec::new();
        if !n.is_multiple_of(PANEL) {
            tail = vec![W::default(); size];
            for (c, column) in w[full * size..].chunks_exact(k).enumerate() {
                for (i, &v) in column.iter().enumerate() {
                    tail[i * PANEL + c] = v;
                }
            }
        }
        // Keeps the allocation (shrinking it could copy the whole matrix);
        // at most seven columns' worth stays unused.
        w.truncate(full * size);
        Panels {
            full: w,
            tail,
            n,
            k,
        }
    }

    /// From `[k, n]` (each input's weights for every column contiguous:
    /// HF's Conv1D).
    pub fn from_columns(w: &[W], k: usize, n: usize) -> Panels<W> {
        assert!(k > 0 && w.len() == n * k, "panels: shapes do not match");
        let size = PANEL * k;
        let mut full = vec![W::default(); n / PANEL * size];
        let mut tail = vec![W::default(); if n.is_multiple_of(PANEL) { 0 } else { size }];
        for (i, row) in w.chunks_exact(n).enumerate() {
            for (j, &v) in row.iter().enumerate() {
                let (p, c) = (j / PANEL, j % PANEL);
                let at = i * PANEL + c;
                if p < n / PANEL {
                    full[p * size + at] = v;
                } else {
                    tail[at] = v;
                }
            }
        }
        Panels { full, tail, n, k }
    }

    /// Output columns.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Inputs per column.
    pub fn k(&self) -> usize {
        self.k
    }

    fn panel_count(&self) -> usize {
        self.n.div_ceil(PANEL)
    }

    fn panel(&self, p: usize) -> &[W] {
        let size = PANEL * self.k;
        if (p + 1) * PANEL <= self.n {
            &self.full[p * size..(p + 1) * size]
        } else {
            &self.tail
        }
    }

    /// Column `c`'s weights (a tied embedding's row for token `c`), widened.
    pub fn column(&self, c: usize) -> Vec<f32> {
        let panel = self.panel(c / PANEL);
        (0..self.k)
            .map(|i| panel[i * PANEL + c % PANEL].to_f32())
            .collect()
    }

    /// The matrix back as `[n, k]` (to stack projections into one).
    pub fn to_rows(&self) -> Vec<W> {
        let mut out = Vec::with_capacity(self.n * self.k);
        for c in 0..self.n {
            let panel = self.panel(c / PANEL);
            out.extend((0..self.k).map(|i| panel[i * PANEL + c % PANEL]));
        }
        out
    }

    /// The same matrix in f32 (exact).
    pub fn widened(&self) -> Panels<f32> {
        let rows = self.to_rows().iter().map(|w| w.to_f32()).collect();
        Panels::from_rows(rows, self.n, self.k)
    }

    /// Several matrices over the same inputs as one, their columns one
    /// after another: one pass and one split over threads instead of one
    /// per projection.
    pub fn stacked(parts: &[&Panels<W>]) -> Panels<W> {
        let k = parts.first().map_or(1, |p| p.k);
        assert!(
            parts.iter().all(|p| p.k == k),
            "panels: stacked parts differ in k"
        );
        let rows: Vec<W> = parts.iter().flat_map(|p| p.to_rows()).collect();
        let n = rows.len() / k;
        Panels::from_rows(rows, n, k)
    }

    /// `x` (`rows × k`) times the matrix: `rows × n`. The panels are shared
    /// out over the worker's threads (`ntl_parallel::split`); each column's
    /// sum is computed the same way whichever thread does it.
    pub fn matmul(&self, x: &[f32], rows: usize) -> Vec<f32> {
        self.matmul_in_parts(x, rows, &|n, f| {
            ntl_parallel::split(n, MIN_PANELS_PER_PART, f)
        })
    }

    /// [`Panels::matmul`] with the split of the panels given (tests cut it
    /// every which way).
    fn matmul_in_parts(&self, x: &[f32], rows: usize, split: Splitter) -> Vec<f32> {
        let (n, k) = (self.n, self.k);
        assert!(x.len() == rows * k, "skinny_matmul: shapes do not match");
        // Each chunk of up to four rows interleaved, `[k][rows]`: one step
        // over the inputs reads every row's value from one place.
        let chunks: Vec<Vec<f32>> = x
            .chunks(ROWS * k)
            .map(|xs| {
                let rows = xs.len() / k;
                (0..k * rows)
                    .map(|j| xs[(j % rows) * k + j / rows])
                    .collect()
            })
            .collect();
        let mut out = vec![0f32; rows * n];
        let dst = Disjoint::new(&mut out);
        split(self.panel_count(), &|part| {
            // A group of panels (≤ 192 KB at k = 768) stays in cache while
            // every four rows of `x` pass over it: a long prompt's prefill
            // reads the weights from memory once, not once per four rows.
            for group in part.clone().step_by(GROUP) {
                let panels = group..(group + GROUP).min(part.end);
                for (chunk, xs) in chunks.iter().enumerate() {
                    let out = Rows {
                        buf: &dst,
                        first: chunk * ROWS,
                        n,
                    };
                    let panels = panels.clone();
                    match xs.len() / k {
                        4 => self.pass::<4, 1>(xs, panels, out),
                        3 => self.pass::<3, 1>(xs, panels, out),
                        2 => self.pass::<2, 2>(xs, panels, out),
                        _ => self.pass::<1, 4>(xs, panels, out),
                    }
                }
            }
        });
        out
    }

    /// `panels` of the output for `R` rows, `P` panels at a time.
    fn pass<const R: usize, const P: usize>(&self, xs: &[f32], panels: Range<usize>, out: Rows) {
        let mut p = panels.start;
        while p + P <= panels.end {
            let w: [&[W]; P] = std::array::from_fn(|q| self.panel(p + q));
            let s = block::<W, R, P>(xs, w, self.k);
            for (q, s) in (0..P).map(|q| (q, s.map(|row| row[q]))) {
                self.store(&s, p + q, out);
            }
            p += P;
        }
        while p < panels.end {
            let s = block::<W, R, 1>(xs, [self.panel(p)], self.k);
            self.store(&s.map(|row| row[0]), p, out);
            p += 1;
        }
    }

    /// Panel `p`'s sums for `R` rows into the output (its padding dropped).
    fn store<const R: usize>(&self, s: &[[f32; PANEL]; R], p: usize, out: Rows) {
        let first = p * PANEL;
        let width = PANEL.min(self.n - first);
        for (r, row) in s.iter().enumerate() {
            let at = (out.first + r) * out.n + first;
            // SAFETY: only this thread writes panel `p`'s columns (its part of the split).
            unsafe { out.buf.slice(at..at + width) }.copy_from_slice(&row[..width]);
        }
    }
}

/// Fewer panels than this per thread are not worth waking a helper for
/// (128 columns: ≈ 0.1 ms of work at distilgpt2's width and four rows).
const MIN_PANELS_PER_PART: usize = 16;

/// Inputs summed apart before their sum joins the column's total: a sum's
/// rounding error grows with the terms added in one chain, so 768 inputs in
/// chains of 64 plus 12 block sums stay as close to the exact sum as the
/// old four interleaved partial sums did, for one more addition per 64.
pub const SUM_BLOCK: usize = 64;

/// Panels that every chunk of rows passes over before the next group.
const GROUP: usize = 8;

type Splitter<'a> = &'a dyn Fn(usize, &(dyn Fn(Range<usize>) + Sync));

/// Output rows `first..` (of `n` columns each) in the buffer the threads share.
#[derive(Clone, Copy)]
struct Rows<'a, 'b> {
    buf: &'a Disjoint<'b, f32>,
    first: usize,
    n: usize,
}

/// The sums of `R` rows of `x` (interleaved, `[k][R]`) with the columns of `P` panels.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn block<W: Weight, const R: usize, const P: usize>(
    x: &[f32],
    w: [&[W]; P],
    k: usize,
) -> [[[f32; PANEL]; P]; R] {
    use core::arch::wasm32::*;
    assert!(x.len() >= R * k && w.iter().all(|p| p.len() >= PANEL * k));
    let mut total = [[[f32x4_splat(0.0); 2]; P]; R];
    for start in (0..k).step_by(SUM_BLOCK) {
        let mut acc = [[[f32x4_splat(0.0); 2]; P]; R];
        for i in start..(start + SUM_BLOCK).min(k) {
            let mut xs = [f32x4_splat(0.0); R];
            for (r, v) in xs.iter_mut().enumerate() {
                // SAFETY: `i * R + r < R * k <= x.len()` (asserted above).
                *v = f32x4_splat(unsafe { *x.get_unchecked(i * R + r) });
            }
            for (q, panel) in w.iter().enumerate() {
                for h in 0..2 {
                    // SAFETY: `i * PANEL + h * 4 + 3 < PANEL * k <= panel.len()` (asserted above).
                    let wq = unsafe { W::load4(panel.as_ptr().add(i * PANEL + h * 4)) };
                    for (a, &xr) in acc.iter_mut().zip(&xs) {
                        a[q][h] = f32x4_add(a[q][h], f32x4_mul(xr, wq));
                    }
                }
            }
        }
        for (t, a) in total.iter_mut().zip(&acc) {
            for (t, a) in t.iter_mut().zip(a) {
                t[0] = f32x4_add(t[0], a[0]);
                t[1] = f32x4_add(t[1], a[1]);
            }
        }
    }
    total.map(|row| {
        row.map(|[lo, hi]| {
            [
                f32x4_extract_lane::<0>(lo),
                f32x4_extract_lane::<1>(lo),
                f32x4_extract_lane::<2>(lo),
                f32x4_extract_lane::<3>(lo),
                f32x4_extract_lane::<0>(hi),
                f32x4_extract_lane::<1>(hi),
                f32x4_extract_lane::<2>(hi),
                f32x4_extract_lane::<3>(hi),
            ]
        })
    })
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn block<W: Weight, const R: usize, const P: usize>(
    x: &[f32],
    w: [&[W]; P],
    k: usize,
) -> [[[f32; PANEL]; P]; R] {
    let mut out = [[[0f32; PANEL]; P]; R];
    for (r, row) in out.iter_mut().enumerate() {
        for (panel, sums) in w.iter().zip(row.iter_mut()) {
            for (c, sum) in sums.iter_mut().enumerate() {
                let mut s = 0f32;
                for start in (0..k).step_by(SUM_BLOCK) {
                    let mut b = 0f32;
                    for i in start..(start + SUM_BLOCK).min(k) {
                        b += x[i * R + r] * panel[i * PANEL + c].to_f32();
                    }
                    s += b;
                }
                *sum = s;
            }
        }
    }
    out
}

/// `x` (`rows × k`) times `w`ᵀ, `w` stored `[n, k]`: packs `w`, then
/// multiplies (tests and tools; the engine packs each matrix once at load).
pub fn matmul_nt<W: Weight>(x: &[f32], rows: usize, w: &[W], k: usize) -> Vec<f32> {
    assert!(
        k > 0 && w.len().is_multiple_of(k),
        "skinny_matmul: shapes do not match"
    );
    Panels::from_rows(w.to_vec(), w.len() / k, k).matmul(x, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weights(n: usize, k: usize) -> Vec<f32> {
        (0..n * k)
            .map(|i| ((i * 37 % 11) as f32 - 5.0) / 7.0)
            .collect()
    }

    fn inputs(rows: usize, k: usize) -> Vec<f32> {
        (0..rows * k)
            .map(|i| ((i * 13 % 17) as f32 - 8.0) / 5.0)
            .collect()
    }

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn matches_a_plain_matmul_for_any_number_of_rows_and_columns() {
        // Columns short of a panel, a panel and a tail, several panels.
        for (k, n) in [
            (10, 7),
            (8, 9),
            (3, 5),
            (12, 1),
            (5, 8),
            (1030, 19),
            (4, 41),
        ] {
            let w = weights(n, k);
            for rows in [1, 2, 3, 4, 5, 9] {
                let x = inputs(rows, k);
                let got = matmul_nt(&x, rows, &w, k);
                for r in 0..rows {
                    for v in 0..n {
                        let want: f32 = (0..k).map(|i| x[r * k + i] * w[v * k + i]).sum();
                        assert!(
                            (got[r * n + v] - want).abs() < 1e-4,
                            "k {k} n {n} rows {rows}: row {r} column {v}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn any_cut_of_the_panels_gives_the_same_bits() {
        let (k, n) = (37, 101);
        let panels = Panels::from_rows(weights(n, k), n, k);
        for rows in [1, 2, 3, 4, 6] {
            let x = inputs(rows, k);
            let whole = panels.matmul_in_parts(&x, rows, &|n, f| f(0..n));
            for parts in [2, 3, 7] {
                // Parts run out of order, as threads would finish them.
                let cut = panels.matmul_in_parts(&x, rows, &|n, f| {
                    for p in (0..parts).rev() {
                        f(n * p / parts..n * (p + 1) / parts)
                    }
                });
                assert_eq!(bits(&cut), bits(&whole), "rows {rows} parts {parts}");
            }
        }
    }

    #[test]
    fn conv1d_weights_pack_as_their_transpose_does() {
        for (k, n) in [(3, 5), (4, 16), (6, 21)] {
            let w = weights(n, k);
            let transposed: Vec<f32> = (0..k * n).map(|j| w[(j % n) * k + j / n]).collect();
            let from_rows = Panels::from_rows(w.clone(), n, k);
            let from_columns = Panels::from_columns(&transposed, k, n);
            assert_eq!(
                bits(&from_columns.full),
                bits(&from_rows.full),
                "k {k} n {n}"
            );
            assert_eq!(
                bits(&from_columns.tail),
                bits(&from_rows.tail),
                "k {k} n {n}"
            );
            assert_eq!(from_rows.to_rows(), w);
        }
    }

    #[test]
    fn a_column_reads_back_as_stored() {
        let (k, n) = (6, 21);
        let w = weights(n, k);
        let panels = Panels::from_rows(w.clone(), n, k);
        for c in 0..n {
            assert_eq!(panels.column(c), w[c * k..(c + 1) * k], "column {c}");
        }
    }

    #[test]
    fn stacked_matrices_give_each_part_its_own_columns() {
        let k = 5;
        let (a, b) = (weights(11, k), inputs(6, k));
        let stacked = Panels::stacked(&[
            &Panels::from_rows(a.clone(), 11, k),
            &Panels::from_rows(b.clone(), 6, k),
        ]);
        assert_eq!((stacked.n(), stacked.k()), (17, k));
        assert_eq!(stacked.to_rows(), [a, b].concat());
    }
}
