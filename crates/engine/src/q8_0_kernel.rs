//! Q8_0 weights times f32 rows, each weight block read once for all rows.
//!
//! candle 0.11's wasm Q8_0 product reads a step's weights at about 3 GB/s of
//! the 10.7 one thread can read (BENCHMARKS.md): per 32 weights it widens
//! both sides' bytes, converts two f16 scales in software, and does it again
//! for every input row. Here each input row is quantized and widened to 16
//! bits once per product, each weight block is loaded and widened once for
//! all rows, and its f16 scale is converted with one integer add. The sums are
//! candle's wasm ones, lane for lane: lane `j` of a block holds the exact
//! integer sum of products `8g + 2j` and `8g + 2j + 1`, is scaled by
//! `weight scale × row scale` and added to that lane's total in block order,
//! and the four totals are added left to right at the end — so every output
//! is bit-identical to candle's wasm product (tested in wasm). The native
//! build computes the same lanes without SIMD (natively candle's AVX kernel
//! adds in another order and is used instead).

use crate::q8_activation::{block_scale, quantize_row, Q8Row, QK};
use crate::row_groups::{in_fours, RowGroup};

/// Bytes of one Q8_0 block: an f16 scale and 32 signed bytes.
pub const Q8_0_BYTES: usize = 34;

/// `x` (`rows × k`) times the `n × k` Q8_0 matrix `w` (its rows' blocks end
/// to end): `rows × n`.
pub fn matmul(w: &[u8], n: usize, k: usize, x: &[f32], rows: usize) -> Vec<f32> {
    assert!(x.len() == rows * k, "quantized matmul: shapes do not match");
    product(w, n, &Input::new(x, k))
}

/// The prepared `input` times the `n`-row Q8_0 matrix `w`.
pub fn product(w: &[u8], n: usize, input: &Input) -> Vec<f32> {
    blocks_product(w, n, input, Q8_0_BYTES, lanes::load)
}

/// Input rows as the kernels of blocks of 32 weights (Q8_0, Q4_0, Q5_0) take
/// them: quantized to Q8_0 blocks as candle quantizes them, and widened.
/// Made once per product, before its rows of weights are shared out over
/// threads (each part quantizing the rows again cost a sixth of a threaded
/// one-lane Q8_0 step in Chromium's profile).
pub struct Input {
    pub(crate) k: usize,
    pub(crate) xq: Vec<Q8Row>,
    pub(crate) wide: Vec<Vec<lanes::Wide>>,
}

impl Input {
    /// `x`: rows of `k` values, `k` a multiple of 32.
    pub fn new(x: &[f32], k: usize) -> Input {
        assert!(
            k > 0 && k.is_multiple_of(QK) && x.len().is_multiple_of(k),
            "quantized matmul: {} values are not rows of {k} in blocks of {QK}",
            x.len()
        );
        let xq: Vec<Q8Row> = x.chunks_exact(k).map(quantize_row).collect();
        let wide = xq.iter().map(|r| lanes::widen(&r.qs)).collect();
        Input { k, xq, wide }
    }

    pub fn rows(&self) -> usize {
        self.xq.len()
    }
}

/// `input` times an `n × k` matrix of blocks of 32 weights, each
/// `block_bytes` long, an f16 scale first, its weights widened by `load`:
/// the sums candle's wasm kernels make for blocks of signed bytes (Q8_0,
/// Q4_0), each weight block read once for all rows.
pub(crate) fn blocks_product(
    w: &[u8],
    n: usize,
    input: &Input,
    block_bytes: usize,
    // A generic, not a fn pointer: each block format gets its own inlined loop.
    load: impl Fn(&[u8]) -> lanes::Wide,
) -> Vec<f32> {
    let per_row = input.k / QK * block_bytes;
    assert!(
        w.len() == n * per_row,
        "quantized matmul: shapes do not match"
    );
    let kernel = Blocks {
        w,
        n,
        per_row,
        block_bytes,
        load,
        xq: &input.xq,
        wide: &input.wide,
    };
    in_fours(input.rows(), n, &kernel)
}

/// A matrix of blocks of signed bytes and the input rows, quantized and
/// widened.
struct Blocks<'a, L> {
    w: &'a [u8],
    n: usize,
    per_row: usize,
    block_bytes: usize,
    load: L,
    xq: &'a [Q8Row],
    wide: &'a [Vec<lanes::Wide>],
}

impl<L: Fn(&[u8]) -> lanes::Wide> RowGroup for Blocks<'_, L> {
    #[inline(always)]
    fn product<const R: usize>(&self, first: usize, out: &mut [f32]) {
        let (xq, wide) = (&self.xq[first..first + R], &self.wide[first..first + R]);
        for (col, wrow) in self.w.chunks_exact(self.per_row).enumerate() {
            let mut totals = [lanes::ZERO; R];
            for (b, block) in wrow.chunks_exact(self.block_bytes).enumerate() {
                let dw = block_scale(block[0], block[1]);
                let weights = (self.load)(block);
                for r in 0..R {
                    totals[r] =
                        lanes::add_scaled(totals[r], &weights, &wide[r][b], dw * xq[r].d[b]);
                }
            }
            for (r, total) in totals.into_iter().enumerate() {
                out[r * self.n + col] = lanes::sum(total);
            }
        }
    }
}

/// Four lanes of sums with wasm SIMD.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod lanes {
    use super::{Q8_0_BYTES, QK};
    use std::arch::wasm32::*;

    /// A block's 32 values widened to 16 bits: values 0..8, 8..16, 16..24, 24..32.
    pub type Wide = [v128; 4];
    pub const ZERO: v128 = f32x4(0.0, 0.0, 0.0, 0.0);

    /// 32 signed bytes, 0..16 in `lo` and 16..32 in `hi`, widened.
    #[inline(always)]
    pub fn widen_bytes(lo: v128, hi: v128) -> Wide {
        [
            i16x8_extend_low_i8x16(lo),
            i16x8_extend_high_i8x16(lo),
            i16x8_extend_low_i8x16(hi),
            i16x8_extend_high_i8x16(hi),
        ]
    }

    pub fn widen(qs: &[[i8; QK]]) -> Vec<Wide> {
        qs.iter()
            .map(|q| {
                // SAFETY: `q` holds 32 bytes, so the 16-byte loads at 0 and
                // 16 are in bounds; v128 loads need no alignment.
                let (lo, hi) = unsafe {
                    (
                        v128_load(q.as_ptr() as *const v128),
                        v128_load(q.as_ptr().add(16) as *const v128),
                    )
                };
                widen_bytes(lo, hi)
            })
            .collect()
    }

    #[inline(always)]
    pub fn load(block: &[u8]) -> Wide {
        assert!(block.len() == Q8_0_BYTES);
        // SAFETY: `block` holds 34 bytes (asserted): the 16-byte loads at 2
        // and 18 end at 18 and 34; v128 loads need no alignment.
        let (lo, hi) = unsafe {
            (
                v128_load(block.as_ptr().add(2) as *const v128),
                v128_load(block.as_ptr().add(18) as *const v128),
            )
        };
        widen_bytes(lo, hi)
    }

    /// The exact integer sum of a block's 32 products, eight at a time.
    #[inline(always)]
    pub fn dot(x: &Wide, y: &Wide) -> i32 {
        let s = i32x4_add(
            i32x4_add(i32x4_dot_i16x8(x[0], y[0]), i32x4_dot_i16x8(x[1], y[1])),
            i32x4_add(i32x4_dot_i16x8(x[2], y[2]), i32x4_dot_i16x8(x[3], y[3])),
        );
        i32x4_extract_lane::<0>(s)
            + i32x4_extract_lane::<1>(s)
            + i32x4_extract_lane::<2>(s)
            + i32x4_extract_lane::<3>(s)
    }

    #[inline(always)]
    pub fn add_scaled(total: v128, w: &Wide, y: &Wide, d: f32) -> v128 {
        let sums = i32x4_add(
            i32x4_add(i32x4_dot_i16x8(w[0], y[0]), i32x4_dot_i16x8(w[1], y[1])),
            i32x4_add(i32x4_dot_i16x8(w[2], y[2]), i32x4_dot_i16x8(w[3], y[3])),
        );
        f32x4_add(total, f32x4_mul(f32x4_convert_i32x4(sums), f32x4_splat(d)))
    }

    pub fn sum(total: v128) -> f32 {
        f32x4_extract_lane::<0>(total)
            + f32x4_extract_lane::<1>(total)
            + f32x4_extract_lane::<2>(total)
            + f32x4_extract_lane::<3>(total)
    }
}

/// The same four lanes without SIMD.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub(crate) mod lanes {
    use super::{Q8_0_BYTES, QK};

    pub type Wide = [i16; QK];
    pub const ZERO: [f32; 4] = [0.0; 4];

    pub fn widen(qs: &[[i8; QK]]) -> Vec<Wide> {
        qs.iter().map(|q| q.map(i16::from)).collect()
    }

    pub fn load(block: &[u8]) -> Wide {
        assert!(block.len() == Q8_0_BYTES);
        std::array::from_fn(|i| block[2 + i] as i8 as i16)
    }

    /// The exact integer sum of a block's 32 products.
    pub fn dot(x: &Wide, y: &Wide) -> i32 {
        x.iter().zip(y).map(|(&a, &b)| a as i32 * b as i32).sum()
    }

    pub fn add_scaled(total: [f32; 4], w: &Wide, y: &Wide, d: f32) -> [f32; 4] {
        std::array::from_fn(|j| {
            let lane: i32 = (0..QK / 8)
                .flat_map(|g| [8 * g + 2 * j, 8 * g + 2 * j + 1])
                .map(|i| w[i] as i32 * y[i] as i32)
                .sum();
            total[j] + lane as f32 * d
        })
    }

    pub fn sum(total: [f32; 4]) -> f32 {
        total[0] + total[1] + total[2] + total[3]
    }
}
