//! Q5_K weights times f32 rows, each weight block unpacked once for all rows.
//!
//! A Q5_K_M file keeps most matrices whose width is a multiple of 256 in
//! Q5_K (all of distilgpt2's, Qwen2.5-0.5B's down projections), and candle
//! 0.11's Q5_K dot product is scalar in wasm. Here the input rows are
//! quantized to Q8_K blocks as candle quantizes them (the Q4_K kernel's
//! input), each weight block is unpacked once per product, and candle's
//! sums are made lane for lane: lane `l` of eight holds the integer sum of
//! the products of weights `8g + l` times their sub-block's scale (exact in
//! any order; here each sub-block's four products are added as 16-bit
//! integers, at most 4 × 128 × 31, before widening), scaled by `d` into
//! that lane's float total block by block; the mins times the input's block
//! sums are taken off one running total, `− dmin × sum`, block by block;
//! and the eight lanes are added left to right and to it at the end. So
//! every output is bit-identical to candle's wasm product (tested in wasm).

use crate::q4_k_kernel::{scales_and_mins, Input, Q8K, QK_K};
use crate::q8_activation::block_scale;
use crate::row_groups::{in_fours, RowGroup};

/// Bytes of one Q5_K block: f16 `d` and `dmin`, 12 bytes of 6-bit scales
/// and mins, 32 bytes of fifth bits, 128 bytes of nibble pairs.
pub const Q5_K_BYTES: usize = 176;

/// `x` (`rows × k`) times the `n × k` Q5_K matrix `w` (its rows' blocks end
/// to end): `rows × n`.
pub fn matmul(w: &[u8], n: usize, k: usize, x: &[f32], rows: usize) -> Vec<f32> {
    assert!(x.len() == rows * k, "q5_k matmul: shapes do not match");
    product(w, n, &Input::new(x, k))
}

/// The prepared `input` times the `n`-row Q5_K matrix `w`.
pub fn product(w: &[u8], n: usize, input: &Input) -> Vec<f32> {
    let per_row = input.k / QK_K * Q5_K_BYTES;
    assert!(w.len() == n * per_row, "q5_k matmul: shapes do not match");
    let kernel = Blocks {
        w,
        n,
        per_row,
        input,
    };
    in_fours(input.xq.len(), n, &kernel)
}

struct Blocks<'a> {
    w: &'a [u8],
    n: usize,
    per_row: usize,
    input: &'a Input,
}

/// The mins' share of a block, as candle sums it: block sum `j` times min
/// `j / 2`.
fn min_sum(y: &Q8K, mins: &[u8; 8]) -> i32 {
    y.bsums
        .iter()
        .enumerate()
        .map(|(j, &s)| s as i32 * mins[j / 2] as i32)
        .sum()
}

impl RowGroup for Blocks<'_> {
    #[inline(always)]
    fn product<const R: usize>(&self, first: usize, out: &mut [f32]) {
        let rows = first..first + R;
        let xq = &self.input.xq[rows];
        for (col, wrow) in self.w.chunks_exact(self.per_row).enumerate() {
            let mut lanes = [lanes::ZERO; R];
            let mut mins_total = [0f32; R];
            for (b, block) in wrow.chunks_exact(Q5_K_BYTES).enumerate() {
                let d = block_scale(block[0], block[1]);
                let dmin = block_scale(block[2], block[3]);
                let (scales, mins) = scales_and_mins(&block[4..16]);
                let weights = lanes::unpack(&block[16..48], &block[48..]);
                for r in 0..R {
                    let y = &xq[r][b];
                    lanes[r] = lanes::add_block(lanes[r], &weights, &y.qs, &scales, d * y.d);
                    mins_total[r] -= dmin * y.d * min_sum(y, &mins) as f32;
                }
            }
            for r in 0..R {
                out[r * self.n + col] = mins_total[r] + lanes::sum(lanes[r]);
            }
        }
    }
}

/// Eight lanes of sums with wasm SIMD, as two vectors of four. Weights
/// (0..31) and inputs (−128..127) are both bytes, so each product is one
/// widening multiply of bytes to 16 bits, with no widened copy of either.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod lanes {
    use crate::q4_k_kernel::QK_K;
    use std::arch::wasm32::*;

    /// A block's 256 weights as bytes, sixteen to a vector, in order.
    pub type Weights = [v128; 16];
    pub type Lanes = [v128; 2];
    pub const ZERO: Lanes = [f32x4(0.0, 0.0, 0.0, 0.0); 2];

    /// The 256 weights (0..31) of a block: in each 32 bytes of `qs`, the low
    /// nibbles are weights 64c..64c+32, the high ones the next 32; weight
    /// 64c + l's fifth bit is bit 2c of `qh[l]`, weight 64c + 32 + l's bit
    /// 2c + 1.
    #[inline(always)]
    pub fn unpack(qh: &[u8], qs: &[u8]) -> Weights {
        assert!(qh.len() == 32 && qs.len() == QK_K / 2);
        // SAFETY: `qh` holds 32 bytes (asserted): the loads at 0 and 16 end
        // at most at 32; v128 loads need no alignment.
        let (h0, h1) = unsafe {
            (
                v128_load(qh.as_ptr() as *const v128),
                v128_load(qh.as_ptr().add(16) as *const v128),
            )
        };
        let fifth = |h: v128, bit: u32| v128_and(i8x16_shl(u8x16_shr(h, bit), 4), u8x16_splat(16));
        let mut out = [u8x16_splat(0); 16];
        for c in 0..4 {
            // SAFETY: `qs` holds 128 bytes (asserted): the 16-byte loads at
            // 32c and 32c + 16 end at most at 128.
            let (a, b) = unsafe {
                (
                    v128_load(qs.as_ptr().add(32 * c) as *const v128),
                    v128_load(qs.as_ptr().add(32 * c + 16) as *const v128),
                )
            };
            let (lo, hi) = (2 * c as u32, 2 * c as u32 + 1);
            out[4 * c] = v128_or(v128_and(a, u8x16_splat(0x0F)), fifth(h0, lo));
            out[4 * c + 1] = v128_or(v128_and(b, u8x16_splat(0x0F)), fifth(h1, lo));
            out[4 * c + 2] = v128_or(u8x16_shr(a, 4), fifth(h0, hi));
            out[4 * c + 3] = v128_or(u8x16_shr(b, 4), fifth(h1, hi));
        }
        out
    }

    /// Lane `l` (of eight) of a block's sums: the products of weights
    /// `8g + l`, each sub-block's four added as 16-bit integers (at most
    /// 4 × 128 × 31), times its scale, as 32-bit integers; then `× d` into
    /// the float lane.
    #[inline(always)]
    pub fn add_block(total: Lanes, w: &Weights, y: &[i8; QK_K], scales: &[u8; 8], d: f32) -> Lanes {
        let (mut lo, mut hi) = (i32x4_splat(0), i32x4_splat(0));
        for (s, &scale) in scales.iter().enumerate() {
            // SAFETY: `y` holds 256 bytes: the 16-byte loads at 32s and
            // 32s + 16 (s < 8) end at most at 256.
            let (y0, y1) = unsafe {
                (
                    v128_load(y.as_ptr().add(32 * s) as *const v128),
                    v128_load(y.as_ptr().add(32 * s + 16) as *const v128),
                )
            };
            let (w0, w1) = (w[2 * s], w[2 * s + 1]);
            let p = i16x8_add(
                i16x8_add(
                    i16x8_extmul_low_i8x16(y0, w0),
                    i16x8_extmul_high_i8x16(y0, w0),
                ),
                i16x8_add(
                    i16x8_extmul_low_i8x16(y1, w1),
                    i16x8_extmul_high_i8x16(y1, w1),
                ),
            );
            let scale = i16x8_splat(scale as i16);
            lo = i32x4_add(lo, i32x4_extmul_low_i16x8(p, scale));
            hi = i32x4_add(hi, i32x4_extmul_high_i16x8(p, scale));
        }
        let d = f32x4_splat(d);
        [
            f32x4_add(total[0], f32x4_mul(d, f32x4_convert_i32x4(lo))),
            f32x4_add(total[1], f32x4_mul(d, f32x4_convert_i32x4(hi))),
        ]
    }

    /// The eight lanes added left to right, as candle's `iter().sum()`.
    pub fn sum(total: Lanes) -> f32 {
        [
            f32x4_extract_lane::<0>(total[0]),
            f32x4_extract_lane::<1>(total[0]),
            f32x4_extract_lane::<2>(total[0]),
            f32x4_extract_lane::<3>(total[0]),
            f32x4_extract_lane::<0>(total[1]),
            f32x4_extract_lane::<1>(total[1]),
            f32x4_extract_lane::<2>(total[1]),
            f32x4_extract_lane::<3>(total[1]),
        ]
        .iter()
        .sum()
    }
}

/// The same eight lanes without SIMD.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod lanes {
    use crate::q4_k_kernel::QK_K;

    pub type Weights = [u8; QK_K];
    pub type Lanes = [f32; 8];
    pub const ZERO: Lanes = [0.0; 8];

    pub fn unpack(qh: &[u8], qs: &[u8]) -> Weights {
        assert!(qh.len() == 32 && qs.len() == QK_K / 2);
        std::array::from_fn(|i| {
            let (c, at) = (i / 64, i % 64);
            let byte = qs[32 * c + at % 32];
            let (nibble, bit) = if at < 32 {
                (byte & 0x0F, 2 * c)
            } else {
                (byte >> 4, 2 * c + 1)
            };
            nibble | (((qh[at % 32] >> bit) & 1) << 4)
        })
    }

    pub fn add_block(total: Lanes, w: &Weights, y: &[i8; QK_K], scales: &[u8; 8], d: f32) -> Lanes {
        std::array::from_fn(|l| {
            let acc: i32 = scales
                .iter()
                .enumerate()
                .map(|(s, &scale)| {
                    let sub: i32 = (0..4)
                        .map(|g| 32 * s + 8 * g + l)
                        .map(|i| w[i] as i32 * y[i] as i32)
                        .sum();
                    sub * scale as i32
                })
                .sum();
            total[l] + d * acc as f32
        })
    }

    pub fn sum(total: Lanes) -> f32 {
        total.iter().sum()
    }
}
