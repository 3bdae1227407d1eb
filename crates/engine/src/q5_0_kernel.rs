//! Q5_0 weights times f32 rows, with wasm SIMD for each block's integer sum.
//!
//! llama.cpp's quantizer writes Q5_0 wherever a K-quant's 256-wide blocks do
//! not fit a row: in a Q4_K_M file of SmolLM2 (576 wide) or Qwen2.5-0.5B
//! (896 wide) that is every attention and gate/up matrix, most of the
//! weights. candle 0.11's Q5_0 dot product is scalar on every target (its
//! Q8_0, Q4_0, Q4_K and Q6_K ones have wasm SIMD). Here the rows are quantized
//! to Q8_0 blocks exactly as candle quantizes them and widened once per
//! product, each weight block is unpacked once for all rows, each block's
//! sum of 32 products is an exact integer (eight at a time in wasm), and
//! the blocks' scaled sums are added in block order as candle adds them, so
//! every output is bit-identical to candle's (tested natively and in wasm).
//! Measured in the page: see BENCHMARKS.md.

use crate::q8_0_kernel::lanes::{dot, Wide};
use crate::q8_0_kernel::Input;
use crate::q8_activation::{block_scale, Q8Row, QK};
use crate::row_groups::{in_fours, RowGroup};

/// Bytes of one Q5_0 block: an f16 scale, 32 fifth bits, 16 bytes of low
/// nibbles.
pub const Q5_0_BYTES: usize = 22;

/// `x` (`rows × k`) times the `n × k` Q5_0 matrix `w` (its rows' blocks end
/// to end): `rows × n`. Each weight block is read and unpacked once for all
/// input rows (four lanes cost one pass over the weights, not four).
pub fn matmul(w: &[u8], n: usize, k: usize, x: &[f32], rows: usize) -> Vec<f32> {
    assert!(x.len() == rows * k, "q5_0 matmul: shapes do not match");
    product(w, n, &Input::new(x, k))
}

/// The prepared `input` times the `n`-row Q5_0 matrix `w`.
pub fn product(w: &[u8], n: usize, input: &Input) -> Vec<f32> {
    let per_row = input.k / QK * Q5_0_BYTES;
    assert!(w.len() == n * per_row, "q5_0 matmul: shapes do not match");
    let kernel = Blocks {
        w,
        n,
        per_row,
        xq: &input.xq,
        wide: &input.wide,
    };
    in_fours(input.rows(), n, &kernel)
}

/// A Q5_0 matrix and the input rows, quantized to Q8_0 blocks and widened.
struct Blocks<'a> {
    w: &'a [u8],
    n: usize,
    per_row: usize,
    xq: &'a [Q8Row],
    wide: &'a [Vec<Wide>],
}

impl RowGroup for Blocks<'_> {
    #[inline(always)]
    fn product<const R: usize>(&self, first: usize, out: &mut [f32]) {
        let (xq, wide) = (&self.xq[first..first + R], &self.wide[first..first + R]);
        for (col, wrow) in self.w.chunks_exact(self.per_row).enumerate() {
            let mut sums = [0f32; R];
            for (b, block) in wrow.chunks_exact(Q5_0_BYTES).enumerate() {
                let dw = block_scale(block[0], block[1]);
                let weights = five_bit_weights(block, 2, 16);
                // Added block by block, as candle adds them.
                for r in 0..R {
                    sums[r] += dot(&weights, &wide[r][b]) as f32 * dw * xq[r].d[b];
                }
            }
            for (r, sum) in sums.into_iter().enumerate() {
                out[r * self.n + col] = sum;
            }
        }
    }
}

/// The 32 weights of a block whose fifth bits (4 bytes) start at `at` and
/// low nibbles (16 bytes) follow, each minus `offset` (Q5_0's 16, Q5_1's 0):
/// weight `j` is the low (`j < 16`) or high nibble of byte `j % 16` with
/// fifth bit `j`.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
pub(crate) fn five_bit_weights(block: &[u8], at: usize, offset: i16) -> Wide {
    let qh = u32::from_le_bytes([block[at], block[at + 1], block[at + 2], block[at + 3]]);
    let qs = &block[at + 4..at + 20];
    let mut x = [0i16; QK];
    for j in 0..QK / 2 {
        x[j] = ((qs[j] & 0x0F) | ((((qh >> j) & 1) << 4) as u8)) as i16 - offset;
        x[j + QK / 2] = ((qs[j] >> 4) | ((((qh >> (j + 16)) & 1) << 4) as u8)) as i16 - offset;
    }
    x
}

/// The same with wasm SIMD, widened to 16 bits: weights 0..8, 8..16,
/// 16..24, 24..32.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
pub(crate) fn five_bit_weights(block: &[u8], at: usize, offset: i16) -> Wide {
    use std::arch::wasm32::*;
    assert!(block.len() >= at + 20);
    // SAFETY: `block` holds at least `at + 20` bytes (asserted), so the
    // 16-byte load at `at + 4` and the 4-byte load at `at` are in bounds;
    // v128 loads need no alignment.
    let (qs, qh) = unsafe {
        (
            v128_load(block.as_ptr().add(at + 4) as *const v128),
            v128_load32_splat(block.as_ptr().add(at) as *const u32),
        )
    };
    // Fifth bits: byte b of qh spread over eight lanes, each lane its own bit.
    let bit = u8x16(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128);
    let h_lo = i8x16_swizzle(qh, u8x16(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1));
    let h_hi = i8x16_swizzle(qh, u8x16(2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3));
    let sixteen = u8x16_splat(16);
    let fifth = |h: v128| v128_and(i8x16_ne(v128_and(h, bit), u8x16_splat(0)), sixteen);
    let offset = i8x16_splat(offset as i8);
    let x0 = i8x16_sub(
        v128_or(v128_and(qs, u8x16_splat(0x0F)), fifth(h_lo)),
        offset,
    );
    let x1 = i8x16_sub(v128_or(u8x16_shr(qs, 4), fifth(h_hi)), offset);
    crate::q8_0_kernel::lanes::widen_bytes(x0, x1)
}
