//! Q4_K weights times f32 rows, each weight block unpacked once for all rows.
//!
//! candle 0.11's wasm Q4_K product unpacks a block's 256 nibbles and decodes
//! its 8 scales and mins again for every input row, and converts its two f16
//! scales in software each time. Here each weight block is unpacked and
//! widened once per product, and each input row is quantized to Q8_K blocks
//! exactly as candle quantizes it. candle's sums are integers until each
//! block's end (lane `l` of a block holds the products of weights `8g + l`
//! and `8g + 4 + l` times their sub-block's scale, and the mins times the
//! input's block sums), so they are exact in any order: here each sub-block's
//! four products are added as 16-bit integers (at most 4 × 128 × 15) before
//! widening. The float steps — `+ sum × d`, then `− mins × dmin`, per lane in
//! block order, the four lanes added left to right — are candle's, so every
//! output is bit-identical to candle's wasm product (tested in wasm).

use crate::q8_activation::block_scale;
use crate::row_groups::{in_fours, RowGroup};

/// Values per K-quant block.
pub const QK_K: usize = 256;
/// Bytes of one Q4_K block: f16 `d` and `dmin`, 12 bytes of 6-bit scales
/// and mins, 128 bytes of nibble pairs.
pub const Q4_K_BYTES: usize = 144;

/// One input block quantized to Q8_K: a scale, 256 values, and the sums of
/// each 16 of them.
pub(crate) struct Q8K {
    pub d: f32,
    pub qs: [i8; QK_K],
    pub bsums: [i16; QK_K / 16],
}

/// `x` in Q8_K blocks as candle's `BlockQ8K::from_float` makes them: the
/// scale from the value of largest magnitude (the first of equals), values
/// rounded half away from zero.
fn quantize_row(x: &[f32]) -> Vec<Q8K> {
    x.chunks_exact(QK_K)
        .map(|xs| {
            let (mut max, mut amax) = (0f32, 0f32);
            for &v in xs {
                if amax < v.abs() {
                    amax = v.abs();
                    max = v;
                }
            }
            let mut block = Q8K {
                d: 0.0,
                qs: [0; QK_K],
                bsums: [0; QK_K / 16],
            };
            if amax == 0.0 {
                return block;
            }
            let iscale = -127f32 / max;
            for (q, &v) in block.qs.iter_mut().zip(xs) {
                *q = (iscale * v).round().clamp(-128.0, 127.0) as i8;
            }
            for (sum, qs) in block.bsums.iter_mut().zip(block.qs.chunks_exact(16)) {
                *sum = qs.iter().map(|&q| q as i32).sum::<i32>() as i16;
            }
            block.d = 1.0 / iscale;
            block
        })
        .collect()
}

/// A block's eight 6-bit sub-block scales and mins (ggml's packing).
pub(crate) fn scales_and_mins(packed: &[u8]) -> ([u8; 8], [u8; 8]) {
    const KMASK1: u32 = 0x3f3f3f3f;
    const KMASK2: u32 = 0x0f0f0f0f;
    const KMASK3: u32 = 0x03030303;
    let word =
        |i: usize| u32::from_le_bytes([packed[i], packed[i + 1], packed[i + 2], packed[i + 3]]);
    let (u0, u1, u2) = (word(0), word(4), word(8));
    let scales_lo = u0 & KMASK1;
    let scales_hi = (u2 & KMASK2) | (((u0 >> 6) & KMASK3) << 4);
    let mins_lo = u1 & KMASK1;
    let mins_hi = ((u2 >> 4) & KMASK2) | (((u1 >> 6) & KMASK3) << 4);
    let bytes = |lo: u32, hi: u32| {
        let [a, b, c, d] = lo.to_le_bytes();
        let [e, f, g, h] = hi.to_le_bytes();
        [a, b, c, d, e, f, g, h]
    };
    (bytes(scales_lo, scales_hi), bytes(mins_lo, mins_hi))
}

/// Lane `l` of the mins' share, as candle's four lanes sum it: the block
/// sums `4t + l` times min `2t + l / 2`.
fn min_sums(bsums: &[i16; QK_K / 16], mins: &[u8; 8]) -> [i32; 4] {
    std::array::from_fn(|l| {
        (0..4)
            .map(|t| bsums[4 * t + l] as i32 * mins[2 * t + l / 2] as i32)
            .sum()
    })
}

/// `x` (`rows × k`) times the `n × k` Q4_K matrix `w` (its rows' blocks end
/// to end): `rows × n`.
pub fn matmul(w: &[u8], n: usize, k: usize, x: &[f32], rows: usize) -> Vec<f32> {
    assert!(x.len() == rows * k, "q4_k matmul: shapes do not match");
    product(w, n, &Input::new(x, k))
}

/// Input rows quantized to Q8_K blocks as candle quantizes them, and
/// widened: made once per product, before its rows of weights are shared
/// out over threads.
pub struct Input {
    pub(crate) k: usize,
    pub(crate) xq: Vec<Vec<Q8K>>,
    pub(crate) wide: Vec<Vec<lanes::Wide>>,
}

impl Input {
    /// `x`: rows of `k` values, `k` a multiple of 256.
    pub fn new(x: &[f32], k: usize) -> Input {
        assert!(
            k > 0 && k.is_multiple_of(QK_K) && x.len().is_multiple_of(k),
            "q4_k matmul: {} values are not rows of {k} in blocks of {QK_K}",
            x.len()
        );
        let xq: Vec<Vec<Q8K>> = x.chunks_exact(k).map(quantize_row).collect();
        let wide = xq
            .iter()
            .map(|r| r.iter().map(|b| lanes::widen(&b.qs)).collect())
            .collect();
        Input { k, xq, wide }
    }
}

/// The prepared `input` times the `n`-row Q4_K matrix `w`.
pub fn product(w: &[u8], n: usize, input: &Input) -> Vec<f32> {
    let per_row = input.k / QK_K * Q4_K_BYTES;
    assert!(w.len() == n * per_row, "q4_k matmul: shapes do not match");
    let kernel = Blocks {
        w,
        n,
        per_row,
        xq: &input.xq,
        wide: &input.wide,
    };
    in_fours(input.xq.len(), n, &kernel)
}

/// A Q4_K matrix and the input rows, quantized to Q8_K and widened.
struct Blocks<'a> {
    w: &'a [u8],
    n: usize,
    per_row: usize,
    xq: &'a [Vec<Q8K>],
    wide: &'a [Vec<lanes::Wide>],
}

impl RowGroup for Blocks<'_> {
    #[inline(always)]
    fn product<const R: usize>(&self, first: usize, out: &mut [f32]) {
        let (xq, wide) = (&self.xq[first..first + R], &self.wide[first..first + R]);
        for (col, wrow) in self.w.chunks_exact(self.per_row).enumerate() {
            let mut totals = [lanes::ZERO; R];
            for (b, block) in wrow.chunks_exact(Q4_K_BYTES).enumerate() {
                let d = block_scale(block[0], block[1]);
                let dmin = block_scale(block[2], block[3]);
                let (scales, mins) = scales_and_mins(&block[4..16]);
                let weights = lanes::unpack(&block[16..]);
                for r in 0..R {
                    let y = &xq[r][b];
                    totals[r] = lanes::add_block(
                        totals[r],
                        &weights,
                        &wide[r][b],
                        &scales,
                        min_sums(&y.bsums, &mins),
                        d * y.d,
                        dmin * y.d,
                    );
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
    use super::QK_K;
    use std::arch::wasm32::*;

    /// A block's 256 values as 16-bit integers, eight to a vector, in order.
    pub type Wide = [v128; 32];
    pub const ZERO: v128 = f32x4(0.0, 0.0, 0.0, 0.0);

    pub fn widen(qs: &[i8; QK_K]) -> Wide {
        std::array::from_fn(|i| {
            // SAFETY: `qs` holds 256 bytes; the 8-byte load at 8i ends at
            // most at 256; v128 loads need no alignment.
            unsafe { i16x8_load_extend_i8x8(qs.as_ptr().add(8 * i)) }
        })
    }

    /// The 256 weights (0..15) of a block's 128 bytes of nibbles: in each 32
    /// bytes, the low nibbles are weights 64j..64j+32, the high ones the next 32.
    #[inline(always)]
    pub fn unpack(qs: &[u8]) -> Wide {
        assert!(qs.len() == QK_K / 2);
        let mut out = [i16x8_splat(0); 32];
        for j in 0..4 {
            // SAFETY: `qs` holds 128 bytes (asserted): the 16-byte loads at
            // 32j and 32j + 16 end at most at 128.
            let (a, b) = unsafe {
                (
                    v128_load(qs.as_ptr().add(32 * j) as *const v128),
                    v128_load(qs.as_ptr().add(32 * j + 16) as *const v128),
                )
            };
            let nibbles = [
                v128_and(a, u8x16_splat(0x0F)),
                v128_and(b, u8x16_splat(0x0F)),
                u8x16_shr(a, 4),
                u8x16_shr(b, 4),
            ];
            for (h, v) in nibbles.into_iter().enumerate() {
                out[8 * j + 2 * h] = u16x8_extend_low_u8x16(v);
                out[8 * j + 2 * h + 1] = u16x8_extend_high_u8x16(v);
            }
        }
        out
    }

    #[inline(always)]
    pub fn add_block(
        total: v128,
        w: &Wide,
        y: &Wide,
        scales: &[u8; 8],
        mins: [i32; 4],
        d: f32,
        dmin: f32,
    ) -> v128 {
        let mut acc = i32x4_splat(0);
        for (s, &scale) in scales.iter().enumerate() {
            let i = 4 * s;
            let p = i16x8_add(
                i16x8_add(i16x8_mul(y[i], w[i]), i16x8_mul(y[i + 1], w[i + 1])),
                i16x8_add(i16x8_mul(y[i + 2], w[i + 2]), i16x8_mul(y[i + 3], w[i + 3])),
            );
            let pair = i32x4_add(i32x4_extend_low_i16x8(p), i32x4_extend_high_i16x8(p));
            acc = i32x4_add(acc, i32x4_mul(pair, i32x4_splat(scale as i32)));
        }
        let total = f32x4_add(total, f32x4_mul(f32x4_convert_i32x4(acc), f32x4_splat(d)));
        let mins = i32x4(mins[0], mins[1], mins[2], mins[3]);
        f32x4_sub(
            total,
            f32x4_mul(f32x4_convert_i32x4(mins), f32x4_splat(dmin)),
        )
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
    use super::QK_K;

    pub type Wide = [i16; QK_K];
    pub const ZERO: [f32; 4] = [0.0; 4];

    pub fn widen(qs: &[i8; QK_K]) -> Wide {
        qs.map(i16::from)
    }

    pub fn unpack(qs: &[u8]) -> Wide {
        assert!(qs.len() == QK_K / 2);
        std::array::from_fn(|i| {
            let (j, at) = (i / 64, i % 64);
            let byte = qs[32 * j + at % 32];
            (if at < 32 { byte & 0x0F } else { byte >> 4 }) as i16
        })
    }

    pub fn add_block(
        total: [f32; 4],
        w: &Wide,
        y: &Wide,
        scales: &[u8; 8],
        mins: [i32; 4],
        d: f32,
        dmin: f32,
    ) -> [f32; 4] {
        std::array::from_fn(|l| {
            let acc: i32 = scales
                .iter()
                .enumerate()
                .map(|(s, &scale)| {
                    let pair: i32 = (0..4)
                        .flat_map(|g| [32 * s + 8 * g + l, 32 * s + 8 * g + 4 + l])
                        .map(|i| w[i] as i32 * y[i] as i32)
                        .sum();
                    pair * scale as i32
                })
                .sum();
            (total[l] + acc as f32 * d) - mins[l] as f32 * dmin
        })
    }

    pub fn sum(total: [f32; 4]) -> f32 {
        total[0] + total[1] + total[2] + total[3]
    }
}
