//! A weight matrix kept in a GGUF file's block format (Q8_0, Q4_0, the
//! K-quants…): multiplied by candle's quantized kernels, which quantize each
//! input row to 8 bits per block as llama.cpp's CPU backend does, and looked
//! up row by row, so an embedding table stays quantized and a step
//! dequantizes only the rows it reads.
//!
//! In the threaded worker the matrix is kept as a few row blocks, each its
//! own tensor, and the worker's threads multiply them side by side
//! (`ntl_parallel`): candle's own pool has one thread in wasm. Blocks start at multiples of four rows, so
//! every output is summed by the same kernel call as in one piece, and the
//! product is bit-identical however the rows are cut.

use crate::{
    block_storage, q4_0_kernel, q4_k_kernel, q5_0_kernel, q5_1_kernel, q5_k_kernel, q8_0_kernel,
};
use candle_core::quantized::{GgmlDType, QMatMul, QTensor};
use candle_core::{Device, Module, Result, Tensor};
use std::ops::Range;
use std::sync::Arc;

/// Row blocks a matrix is cut into: in the threaded worker several per
/// thread (2 here, up to 8 on a larger machine), each thread taking the next
/// as it becomes free, so one that starts late or runs slower leaves its
/// share to the others (with the input prepared once per product, 16 blocks
/// cost no more than 8). Elsewhere one:
/// natively candle's own pool splits it, and in the single-threaded worker
/// each block costs a kernel call (cut into 8, a SmolLM2 Q8_0 step took 65 ms
/// instead of 51).
const PARTS: usize = if cfg!(all(target_arch = "wasm32", target_feature = "atomics")) {
    16
} else {
    1
};

/// An input prepared once per product for this crate's kernel of a block
/// format, where it has one, in wasm: Q5_0, Q5_1, Q4_1 and Q5_K (candle's
/// are scalar there), Q8_0, and for more than one row Q4_0 and Q4_K
/// (candle's unpack each weight block and convert its f16 scales again for
/// every row). Each gives candle's bits, so which one runs changes no
/// number. Measured in Chromium, 3072 × 768, best of 5 × 100 (ms, candle /
/// own): one row Q8_0 0.43 / 0.30, Q4_0 0.46 / 0.78, Q4_K 0.50 / 0.55; four
/// rows Q8_0 1.64 / 0.70, Q4_0 1.89 / 1.23, Q4_K 2.01 / 1.51; best of 7 ×
/// 40, one / four rows: Q5_0 2.00 / 0.65, 8.05 / 1.35; Q4_1 1.75 / 0.55,
/// 7.12 / 1.25; Q5_1 1.65 / 0.75, 6.65 / 1.48; Q5_K 0.55 / 0.47, 2.23 /
/// 1.45; and again Q4_0 0.38 / 0.40 and Q4_K 0.45 / 0.47 for one row (so
/// one row stays on candle's for those two; Q4_K with bytes and widening
/// multiplies, as Q5_K has, was no faster for one row and slower for four).
/// Natively candle's kernels run on its pool of threads.
enum Prepared {
    Q8_0(q8_0_kernel::Input),
    Q4_0(q8_0_kernel::Input),
    Q5_0(q8_0_kernel::Input),
    Q4_1(q5_1_kernel::Input),
    Q5_1(q5_1_kernel::Input),
    Q4K(q4_k_kernel::Input),
    Q5K(q4_k_kernel::Input),
}

impl Prepared {
    fn new(dtype: GgmlDType, x: &[f32], rows: usize, k: usize) -> Option<Prepared> {
        if !cfg!(target_arch = "wasm32") {
            return None;
        }
        let q8 = || q8_0_kernel::Input::new(x, k);
        let q8_1 = || q5_1_kernel::Input::new(x, k);
        let q8_k = || q4_k_kernel::Input::new(x, k);
        match dtype {
            GgmlDType::Q5_0 => Some(Prepared::Q5_0(q8())),
            GgmlDType::Q8_0 => Some(Prepared::Q8_0(q8())),
            GgmlDType::Q4_0 if rows > 1 => Some(Prepared::Q4_0(q8())),
            GgmlDType::Q4_1 => Some(Prepared::Q4_1(q8_1())),
            GgmlDType::Q5_1 => Some(Prepared::Q5_1(q8_1())),
            GgmlDType::Q4K if rows > 1 => Some(Prepared::Q4K(q8_k())),
            GgmlDType::Q5K => Some(Prepared::Q5K(q8_k())),
            _ => None,
        }
    }

    /// The input times the `n`-row matrix `w` (the format's blocks).
    fn times(&self, w: &[u8], n: usize) -> Vec<f32> {
        match self {
            Prepared::Q8_0(x) => q8_0_kernel::product(w, n, x),
            Prepared::Q4_0(x) => q4_0_kernel::product(w, n, x),
            Prepared::Q5_0(x) => q5_0_kernel::product(w, n, x),
            Prepared::Q4_1(x) => q5_1_kernel::product_q4_1(w, n, x),
            Prepared::Q5_1(x) => q5_1_kernel::product_q5_1(w, n, x),
            Prepared::Q4K(x) => q4_k_kernel::product(w, n, x),
            Prepared::Q5K(x) => q5_k_kernel::product(w, n, x),
        }
    }
}

/// `x` times `w` by candle's kernels. Q8_0 goes to its plain product, as
/// llama.cpp multiplies it (each input row rounded to Q8_0 blocks): on an
/// AVX-VNNI machine candle's `QMatMul` takes a repacked path for widths that
/// are multiples of 256 that rounds the inputs to Q8_K instead, and KJV
/// GPT-2 kept in 8 bits then gave 14.31 % for its first token where the
/// plain product (and the browser) give 14.18 %.
fn candle_product(w: &Arc<QTensor>, x: &Tensor) -> Result<Tensor> {
    if w.dtype() != GgmlDType::Q8_0 {
        return QMatMul::QTensor(w.clone()).forward(x);
    }
    use candle_core::quantized::k_quants::{matmul, BlockQ8_0};
    let (rows, k) = x.dims2()?;
    let (n, wk) = w.shape().dims2()?;
    if k != wk {
        candle_core::bail!("a [{rows}, {k}] input against a Q8_0 matrix over {wk} inputs");
    }
    let data = w.data()?;
    let size = std::mem::size_of::<BlockQ8_0>();
    if data.len() != n * (k / QK8_0) * size
        || !k.is_multiple_of(QK8_0)
        || !data.as_ptr().cast::<BlockQ8_0>().is_aligned()
    {
        candle_core::bail!("a Q8_0 matrix whose bytes are not {n} × {k} weights in blocks");
    }
    // SAFETY: `BlockQ8_0` is `repr(C)` (an f16 and 32 bytes; every bit
    // pattern is a value), and the length and alignment are checked above;
    // the slice borrows `data`, which outlives it.
    let blocks: &[BlockQ8_0] =
        unsafe { std::slice::from_raw_parts(data.as_ptr().cast(), data.len() / size) };
    let xs: Vec<f32> = x.flatten_all()?.to_vec1()?;
    let mut out = vec![0f32; rows * n];
    matmul((rows, k, n), &xs, blocks, &mut out)?;
    Tensor::from_vec(out, (rows, n), &Device::Cpu)
}

/// Inputs per Q8_0 block.
const QK8_0: usize = 32;

/// Fewer rows than this per block are not worth a kernel call of their own.
const MIN_ROWS_PER_PART: usize = 32;

struct Part {
    w: Arc<QTensor>,
    rows: Range<usize>,
}

pub(crate) struct QuantizedMatrix {
    /// `[n, k]` as row blocks: `n` output rows of `k` inputs, each row its own blocks.
    parts: Vec<Part>,
    dtype: GgmlDType,
    n: usize,
    k: usize,
}

/// The row blocks of an `n`-row matrix cut into at most `parts`: each at
/// least [`MIN_ROWS_PER_PART`] long and starting at a multiple of four rows.
fn row_blocks(n: usize, parts: usize) -> Vec<Range<usize>> {
    let parts = parts.min(n / MIN_ROWS_PER_PART).max(1);
    let step = n.div_ceil(parts).next_multiple_of(4);
    (0..n)
        .step_by(step.max(4))
        .map(|s| s..(s + step).min(n))
        .collect()
}

impl QuantizedMatrix {
    pub fn new(w: QTensor) -> Result<QuantizedMatrix> {
        QuantizedMatrix::cut(w, PARTS)
    }

    /// `w` as row blocks of at most `parts` (tests cut it every which way).
    fn cut(w: QTensor, parts: usize) -> Result<QuantizedMatrix> {
        let (n, k) = w.shape().dims2()?;
        let dtype = w.dtype();
        if row_blocks(n, parts).len() == 1 {
            return Ok(QuantizedMatrix {
                dtype,
                parts: vec![Part {
                    w: Arc::new(w),
                    rows: 0..n,
                }],
                n,
                k,
            });
        }
        let bytes = w.data()?;
        let row_bytes = bytes.len() / n.max(1);
        QuantizedMatrix::read_in(dtype, n, k, parts, |rows, dst| {
            dst.copy_from_slice(&bytes[rows.start * row_bytes..rows.end * row_bytes]);
            Ok(())
        })
    }

    /// A matrix whose rows' blocks `fill(rows, bytes)` writes straight into
    /// each row block's storage, in the file's layout: a GGUF file's bytes
    /// are copied once, from the download into the blocks the kernels read.
    pub fn read(
        dtype: GgmlDType,
        n: usize,
        k: usize,
        fill: impl FnMut(Range<usize>, &mut [u8]) -> Result<()>,
    ) -> Result<QuantizedMatrix> {
        QuantizedMatrix::read_in(dtype, n, k, PARTS, fill)
    }

    fn read_in(
        dtype: GgmlDType,
        n: usize,
        k: usize,
        parts: usize,
        mut fill: impl FnMut(Range<usize>, &mut [u8]) -> Result<()>,
    ) -> Result<QuantizedMatrix> {
        let parts = row_blocks(n, parts)
            .into_iter()
            .map(|rows| {
                let w = block_storage::filled(dtype, rows.len(), k, |b| fill(rows.clone(), b))?;
                Ok(Part {
                    w: Arc::new(w),
                    rows,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(QuantizedMatrix { parts, dtype, n, k })
    }

    /// Bytes of one row's blocks.
    fn row_bytes(&self) -> usize {
        self.k / self.dtype.block_size() * self.dtype.type_size()
    }

    /// The blocks of `rows` end to end into `dst`.
    fn copy_rows(&self, rows: Range<usize>, dst: &mut [u8]) -> Result<()> {
        let row_bytes = self.row_bytes();
        for part in &self.parts {
            let (from, to) = (rows.start.max(part.rows.start), rows.end.min(part.rows.end));
            if from >= to {
                continue;
            }
            let data = part.w.data()?;
            let local = (from - part.rows.start) * row_bytes..(to - part.rows.start) * row_bytes;
            dst[(from - rows.start) * row_bytes..(to - rows.start) * row_bytes]
                .copy_from_slice(&data[local]);
        }
        Ok(())
    }

    pub fn dtype(&self) -> GgmlDType {
        self.dtype
    }

    /// `x` (`[rows, k]`) times the matrix: `[rows, n]`.
    pub fn matmul(&self, x: &Tensor) -> Result<Tensor> {
        let (rows, k) = x.dims2()?;
        if k != self.k {
            candle_core::bail!(
                "a [{rows}, {k}] input against a matrix over {} inputs",
                self.k
            );
        }
        // Each thread gets the input as plain numbers (a tensor is not
        // shared across the worker's threads), prepared once for this
        // crate's kernel, and writes its block's columns.
        let xs: Vec<f32> = x.flatten_all()?.to_vec1()?;
        let prepared = Prepared::new(self.dtype, &xs, rows, self.k);
        if let ([one], None) = (self.parts.as_slice(), &prepared) {
            return candle_product(&one.w, &x.contiguous()?);
        }
        let mut out = vec![0f32; rows * self.n];
        let dst = ntl_parallel::Disjoint::new(&mut out);
        let failed = std::sync::Mutex::new(None);
        ntl_parallel::each(self.parts.len(), &|i| {
            let part = &self.parts[i];
            let product = self.part_product(part, prepared.as_ref(), &xs, rows);
            match product {
                Ok(y) => {
                    let width = part.rows.len();
                    for (r, row) in y.chunks_exact(width).enumerate() {
                        let at = r * self.n + part.rows.start;
                        // SAFETY: block `i` alone writes its columns `part.rows` of each row.
                        unsafe { dst.slice(at..at + width) }.copy_from_slice(row);
                    }
                }
                Err(e) => *failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(e),
            }
        });
        if let Some(e) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        Tensor::from_vec(out, (rows, self.n), &Device::Cpu)
    }

    /// `xs` (`rows × k`), or the same rows `prepared` for this crate's
    /// kernel, times one row block: `rows × part.rows.len()`.
    fn part_product(
        &self,
        part: &Part,
        prepared: Option<&Prepared>,
        xs: &[f32],
        rows: usize,
    ) -> Result<Vec<f32>> {
        if let Some(prepared) = prepared {
            return Ok(prepared.times(&part.w.data()?, part.rows.len()));
        }
        Tensor::from_slice(xs, (rows, self.k), &Device::Cpu)
            .and_then(|x| candle_product(&part.w, &x))
            .and_then(|y| y.flatten_all())
            .and_then(|y| y.to_vec1::<f32>())
    }

    /// Rows `ids`, dequantized, `[ids.len(), k]` in f32: an embedding lookup.
    pub fn embed(&self, ids: &[u32]) -> Result<Tensor> {
        if let Some(&id) = ids.iter().find(|&&id| id as usize >= self.n) {
            candle_core::bail!("token id {id} is past the embedding's {} rows", self.n);
        }
        if let [one] = self.parts.as_slice() {
            let ids = Tensor::from_slice(ids, ids.len(), &Device::Cpu)?;
            return one.w.embedding(&ids);
        }
        let rows = ids
            .iter()
            .map(|&id| {
                let id = id as usize;
                let part = self
                    .parts
                    .iter()
                    .find(|p| p.rows.contains(&id))
                    .expect("the blocks cover every row");
                let local = Tensor::from_slice(&[(id - part.rows.start) as u32], 1, &Device::Cpu)?;
                part.w.embedding(&local)
            })
            .collect::<Result<Vec<_>>>()?;
        Tensor::cat(&rows, 0)
    }

    /// The rows' blocks end to end.
    #[cfg(test)]
    fn bytes(&self) -> Result<Vec<u8>> {
        let mut bytes = vec![0u8; self.n * self.row_bytes()];
        self.copy_rows(0..self.n, &mut bytes)?;
        Ok(bytes)
    }

    /// Matrices over the same inputs in the same block format as one, their
    /// rows one after another (each row's blocks are its own, so this is
    /// their bytes end to end, copied once); `None` when they differ (a
    /// K-quant mix keeps `attn_v` in a wider type than `attn_q`).
    pub fn stacked(parts: &[&QuantizedMatrix]) -> Option<Result<QuantizedMatrix>> {
        QuantizedMatrix::stacked_in(parts, PARTS)
    }

    fn stacked_in(parts: &[&QuantizedMatrix], cut: usize) -> Option<Result<QuantizedMatrix>> {
        let first = parts.first()?;
        if parts
            .iter()
            .any(|p| p.dtype() != first.dtype() || p.k != first.k)
        {
            return None;
        }
        let n = parts.iter().map(|p| p.n).sum::<usize>();
        let row_bytes = first.row_bytes();
        Some(QuantizedMatrix::read_in(
            first.dtype(),
            n,
            first.k,
            cut,
            |rows, dst| {
                let mut offset = 0;
                for p in parts {
                    let (from, to) = (rows.start.max(offset), rows.end.min(offset + p.n));
                    if from < to {
                        let at = &mut dst
                            [(from - rows.start) * row_bytes..(to - rows.start) * row_bytes];
                        p.copy_rows(from - offset..to - offset, at)?;
                    }
                    offset += p.n;
                }
                Ok(())
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quantized(rows: &[f32], n: usize, k: usize, dtype: GgmlDType) -> QuantizedMatrix {
        let t = Tensor::from_slice(rows, (n, k), &Device::Cpu).unwrap();
        QuantizedMatrix::new(QTensor::quantize(&t, dtype).unwrap()).unwrap()
    }

    fn ramp(n: usize, k: usize, scale: f32) -> Vec<f32> {
        (0..n * k)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) * scale)
            .collect()
    }

    /// Rounded to Q8_0 blocks as llama.cpp rounds a product's inputs: this
    /// crate's own kernel, summed in its own order, beside the product at the
    /// widths real models have (768, 3072: multiples of 256, which candle's
    /// x86 repacking would round to Q8_K on an AVX-VNNI machine).
    #[test]
    fn a_q8_0_product_rounds_its_inputs_to_q8_0_at_every_width() {
        for k in [128, 768, 3072] {
            let n = 64;
            let w = ramp(n, k, 0.013);
            let m = quantized(&w, n, k, GgmlDType::Q8_0);
            let bytes = m.bytes().unwrap();
            for rows in [1, 3] {
                let x: Vec<f32> = (0..rows * k)
                    .map(|i| ((i * 7919 % 1009) as f32 / 1009.0 - 0.5) * (1 + i % 3) as f32)
                    .collect();
                let xt = Tensor::from_slice(&x, (rows, k), &Device::Cpu).unwrap();
                let got = flat(m.matmul(&xt).unwrap());
                let want = q8_0_kernel::matmul(&bytes, n, k, &x, rows);
                for (i, (a, b)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        (a - b).abs() <= 1e-5 * (1.0 + b.abs()),
                        "k {k}, {rows} rows, output {i}: {a} vs {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_q8_0_product_is_close_to_the_f32_one() {
        let (n, k) = (8, 64);
        let w = ramp(n, k, 0.01);
        let x = Tensor::from_slice(&ramp(2, k, 0.02), (2, k), &Device::Cpu).unwrap();
        let q = quantized(&w, n, k, GgmlDType::Q8_0).matmul(&x).unwrap();
        let wt = Tensor::from_slice(&w, (n, k), &Device::Cpu).unwrap();
        let exact = x.matmul(&wt.t().unwrap()).unwrap();
        let (q, exact): (Vec<Vec<f32>>, Vec<Vec<f32>>) =
            (q.to_vec2().unwrap(), exact.to_vec2().unwrap());
        // Both sides are rounded to 8 bits a block: about 1 % of the
        // outputs' scale, not of each (possibly cancelling) sum.
        let scale = exact.iter().flatten().fold(0f32, |m, v| m.max(v.abs()));
        for (qr, er) in q.iter().zip(&exact) {
            for (a, b) in qr.iter().zip(er) {
                assert!((a - b).abs() < 0.02 * scale, "{a} vs {b} (scale {scale})");
            }
        }
    }

    #[test]
    fn an_embedding_reads_its_rows_dequantized() {
        let (n, k) = (5, 32);
        let w = ramp(n, k, 0.1);
        let m = quantized(&w, n, k, GgmlDType::Q8_0);
        let rows: Vec<Vec<f32>> = m.embed(&[3, 0]).unwrap().to_vec2().unwrap();
        for (got, want) in rows[0].iter().zip(&w[3 * k..4 * k]) {
            assert!((got - want).abs() < 0.05, "{got} vs {want}");
        }
        let e = m.embed(&[5]).unwrap_err();
        assert!(e.to_string().contains("token id 5"), "{e}");
    }

    #[test]
    fn stacking_keeps_each_part_s_products() {
        let k = 32;
        let a = quantized(&ramp(3, k, 0.1), 3, k, GgmlDType::Q4_0);
        let b = quantized(&ramp(2, k, 0.3), 2, k, GgmlDType::Q4_0);
        let x = Tensor::from_slice(&ramp(1, k, 0.05), (1, k), &Device::Cpu).unwrap();
        let both = QuantizedMatrix::stacked(&[&a, &b]).unwrap().unwrap();
        let got: Vec<f32> = both
            .matmul(&x)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        let mut want: Vec<f32> = a
            .matmul(&x)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        want.extend(
            b.matmul(&x)
                .unwrap()
                .flatten_all()
                .unwrap()
                .to_vec1::<f32>()
                .unwrap(),
        );
        assert_eq!(got, want);
        let c = quantized(&ramp(2, k, 0.3), 2, k, GgmlDType::Q8_0);
        assert!(QuantizedMatrix::stacked(&[&a, &c]).is_none());
    }

    fn flat(t: Tensor) -> Vec<f32> {
        t.flatten_all().unwrap().to_vec1().unwrap()
    }

    #[test]
    fn row_blocks_start_at_fours_cover_every_row_and_stay_whole_when_small() {
        assert_eq!(row_blocks(2 * MIN_ROWS_PER_PART - 1, 8), vec![0..63]);
        assert_eq!(row_blocks(130, 8), vec![0..36, 36..72, 72..108, 108..130]);
        for (n, parts) in [(896, 8), (1152, 8), (50257, 8), (4864, 3), (257, 4)] {
            let blocks = row_blocks(n, parts);
            assert!(blocks.len() <= parts);
            assert_eq!(blocks.first().unwrap().start, 0);
            assert_eq!(blocks.last().unwrap().end, n);
            for pair in blocks.windows(2) {
                assert_eq!(pair[0].end, pair[1].start);
                assert_eq!(pair[1].start % 4, 0);
            }
        }
    }

    #[test]
    fn a_matrix_cut_into_row_blocks_multiplies_and_looks_up_bit_for_bit_as_one() {
        for (dtype, k) in [
            (GgmlDType::Q8_0, 64),
            (GgmlDType::Q4_0, 96),
            (GgmlDType::Q5_0, 64),
            (GgmlDType::Q4K, 256),
            (GgmlDType::Q6K, 256),
        ] {
            let n = 270; // not a multiple of four: a tail in the last block
            let w = ramp(n, k, 0.01);
            let t = Tensor::from_slice(&w, (n, k), &Device::Cpu).unwrap();
            let whole = QuantizedMatrix::cut(QTensor::quantize(&t, dtype).unwrap(), 1).unwrap();
            let cut = QuantizedMatrix::cut(QTensor::quantize(&t, dtype).unwrap(), 4).unwrap();
            assert_eq!(cut.parts.len(), 4, "{dtype:?}");
            for rows in 1..=5 {
                let x = Tensor::from_slice(&ramp(rows, k, 0.02), (rows, k), &Device::Cpu).unwrap();
                assert_eq!(
                    flat(cut.matmul(&x).unwrap()),
                    flat(whole.matmul(&x).unwrap()),
                    "{dtype:?}, {rows} rows"
                );
            }
            let ids = [269, 0, 68, 67, 135, 68];
            assert_eq!(
                flat(cut.embed(&ids).unwrap()),
                flat(whole.embed(&ids).unwrap()),
                "{dtype:?}"
            );
            assert!(cut.embed(&[270]).is_err());
            // Stacked, the blocks are cut again over the joined rows
            // (blocks that straddle the two matrices' seam too).
            for into in [1, 3] {
                let both = QuantizedMatrix::stacked_in(&[&cut, &whole], into)
                    .unwrap()
                    .unwrap();
                assert_eq!((both.n, both.dtype()), (2 * n, dtype));
                assert_eq!(both.parts.len(), into);
                let x = Tensor::from_slice(&ramp(2, k, 0.02), (2, k), &Device::Cpu).unwrap();
                let got = flat(both.matmul(&x).unwrap());
                let one = flat(whole.matmul(&x).unwrap());
                for r in 0..2 {
                    assert_eq!(&got[r * 2 * n..r * 2 * n + n], &one[r * n..(r + 1) * n]);
                    assert_eq!(
                        &got[r * 2 * n + n..(r + 1) * 2 * n],
                        &one[r * n..(r + 1) * n]
                    );
                }
                let mut bytes = whole.bytes().unwrap();
                bytes.extend(whole.bytes().unwrap());
                assert_eq!(
                    both.bytes().unwrap(),
                    bytes,
                    "{dtype:?}: the rows' blocks end to end"
                );
            }
        }
    }
}
