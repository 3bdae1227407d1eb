//! Q5_1 and Q4_1 weights (blocks with a scale and a minimum) times f32
//! rows, with wasm SIMD for each block's integer sum.
//!
//! llama.cpp's quantizer writes Q5_1 wherever a Q5_K_M file's 256-wide
//! blocks do not fit a row (every matrix of SmolLM2, 576 wide, and all but
//! the down projections of Qwen2.5-0.5B, 896 wide); Q4_1 files are rarer.
//! candle 0.11's dot products for both are scalar on every target. Here the
//! rows are quantized to Q8_1 blocks exactly as candle quantizes them (Q8_0's
//! values and scale, plus each block's sum as f16) and widened once per
//! product, each weight block is unpacked once for all rows, each block's
//! 32 products are summed as integers eight at a time (exact in any order),
//! and the float steps — `sum × d_w × d_x + m_w × s_x`, added block by
//! block — are candle's, so every output is bit-identical to candle's
//! (tested natively and in wasm).

use crate::q5_0_kernel::five_bit_weights;
use crate::q8_0_kernel::lanes::{dot, Wide};
use crate::q8_activation::{block_scale, QK};
use crate::row_groups::{in_fours, RowGroup};
use half::f16;

/// Bytes of one Q4_1 block: f16 scale and minimum, 16 bytes of nibble pairs.
pub const Q4_1_BYTES: usize = 20;
/// Bytes of one Q5_1 block: f16 scale and minimum, 32 fifth bits, 16 bytes
/// of low nibbles.
pub const Q5_1_BYTES: usize = 24;

/// Input rows as Q8_1 blocks: the Q8_0 input (the same values and scales)
/// and each block's `s`, its values' sum times its scale, as candle keeps
/// it (in f16).
pub struct Input {
    q8: crate::q8_0_kernel::Input,
    s: Vec<Vec<f32>>,
}

impl Input {
    /// `x`: rows of `k` values, `k` a multiple of 32.
    pub fn new(x: &[f32], k: usize) -> Input {
        let q8 = crate::q8_0_kernel::Input::new(x, k);
        let s = q8
            .xq
            .iter()
            .map(|row| {
                row.qs
                    .iter()
                    .zip(&row.d)
                    .map(|(qs, &d)| {
                        let sum: i32 = qs.iter().map(|&q| q as i32).sum();
                        // `d` came from an f16: the round trip is exact.
                        (f16::from_f32(sum as f32) * f16::from_f32(d)).to_f32()
                    })
                    .collect()
            })
            .collect();
        Input { q8, s }
    }
}

/// `x` (`rows × k`) times the `n × k` Q4_1 matrix `w` (its rows' blocks end
/// to end): `rows × n`.
pub fn matmul_q4_1(w: &[u8], n: usize, k: usize, x: &[f32], rows: usize) -> Vec<f32> {
    assert!(x.len() == rows * k, "q4_1 matmul: shapes do not match");
    product_q4_1(w, n, &Input::new(x, k))
}

/// `x` (`rows × k`) times the `n × k` Q5_1 matrix `w`: `rows × n`.
pub fn matmul_q5_1(w: &[u8], n: usize, k: usize, x: &[f32], rows: usize) -> Vec<f32> {
    assert!(x.len() == rows * k, "q5_1 matmul: shapes do not match");
    product_q5_1(w, n, &Input::new(x, k))
}

/// The prepared `input` times the `n`-row Q4_1 matrix `w`.
pub fn product_q4_1(w: &[u8], n: usize, input: &Input) -> Vec<f32> {
    blocks_product(w, n, input, Q4_1_BYTES, four_bit_weights)
}

/// The prepared `input` times the `n`-row Q5_1 matrix `w`.
pub fn product_q5_1(w: &[u8], n: usize, input: &Input) -> Vec<f32> {
    blocks_product(w, n, input, Q5_1_BYTES, |block| {
        five_bit_weights(block, 4, 0)
    })
}

fn blocks_product(
    w: &[u8],
    n: usize,
    input: &Input,
    block_bytes: usize,
    // A generic, not a fn pointer: each block format gets its own inlined loop.
    load: impl Fn(&[u8]) -> Wide,
) -> Vec<f32> {
    let per_row = input.q8.k / QK * block_bytes;
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
        input,
    };
    in_fours(input.q8.rows(), n, &kernel)
}

struct Blocks<'a, L> {
    w: &'a [u8],
    n: usize,
    per_row: usize,
    block_bytes: usize,
    load: L,
    input: &'a Input,
}

impl<L: Fn(&[u8]) -> Wide> RowGroup for Blocks<'_, L> {
    #[inline(always)]
    fn product<const R: usize>(&self, first: usize, out: &mut [f32]) {
        let rows = first..first + R;
        let (xq, wide, s) = (
            &self.input.q8.xq[rows.clone()],
            &self.input.q8.wide[rows.clone()],
            &self.input.s[rows],
        );
        for (col, wrow) in self.w.chunks_exact(self.per_row).enumerate() {
            let mut sums = [0f32; R];
            for (b, block) in wrow.chunks_exact(self.block_bytes).enumerate() {
                let dw = block_scale(block[0], block[1]);
                let mw = block_scale(block[2], block[3]);
                let weights = (self.load)(block);
                // candle's steps: `(sum × d_w) × d_x + m_w × s_x`, then
                // added to the total block by block.
                for r in 0..R {
                    let sum = dot(&weights, &wide[r][b]) as f32;
                    sums[r] += sum * dw * xq[r].d[b] + mw * s[r][b];
                }
            }
            for (r, sum) in sums.into_iter().enumerate() {
                out[r * self.n + col] = sum;
            }
        }
    }
}

/// A Q4_1 block's 32 weights (0..15): weight `j` is the low (`j < 16`) or
/// high nibble of byte `j % 16` of the 16 after the scale and minimum.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn four_bit_weights(block: &[u8]) -> Wide {
    assert!(block.len() == Q4_1_BYTES);
    std::array::from_fn(|j| {
        let byte = block[4 + j % 16];
        (if j < 16 { byte & 0x0F } else { byte >> 4 }) as i16
    })
}

/// The same with wasm SIMD, widened to 16 bits.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn four_bit_weights(block: &[u8]) -> Wide {
    use std::arch::wasm32::*;
    assert!(block.len() == Q4_1_BYTES);
    // SAFETY: `block` holds 20 bytes (asserted): the 16-byte load at 4 ends
    // at 20; v128 loads need no alignment.
    let q = unsafe { v128_load(block.as_ptr().add(4) as *const v128) };
    crate::q8_0_kernel::lanes::widen_bytes(v128_and(q, u8x16_splat(0x0F)), u8x16_shr(q, 4))
}
