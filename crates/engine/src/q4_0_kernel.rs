//! Q4_0 weights times f32 rows, each weight block read once for all rows.
//!
//! candle 0.11's wasm Q4_0 product re-reads and unpacks every weight block
//! once per input row, so four lanes cost four passes over the weights.
//! Here a block's 32 nibbles are unpacked to −8..7 and widened once, and
//! multiplied by each row's Q8_0 block with the lanes of the Q8_0 kernel:
//! candle's wasm sums lane for lane (its `vec_dot_q4_0_q8_0` puts the low
//! nibbles first, as weights 0..16, and the high ones as 16..32), so every
//! output is bit-identical to candle's wasm product (tested in wasm).

use crate::q8_0_kernel::{blocks_product, lanes::Wide, Input};

/// Bytes of one Q4_0 block: an f16 scale and 16 bytes of nibble pairs.
pub const Q4_0_BYTES: usize = 18;

/// `x` (`rows × k`) times the `n × k` Q4_0 matrix `w` (its rows' blocks end
/// to end): `rows × n`.
pub fn matmul(w: &[u8], n: usize, k: usize, x: &[f32], rows: usize) -> Vec<f32> {
    assert!(x.len() == rows * k, "q4_0 matmul: shapes do not match");
    product(w, n, &Input::new(x, k))
}

/// The prepared `input` times the `n`-row Q4_0 matrix `w`.
pub fn product(w: &[u8], n: usize, input: &Input) -> Vec<f32> {
    blocks_product(w, n, input, Q4_0_BYTES, load)
}

/// A block's weights, widened: weight `j` is the low (`j < 16`) or high
/// nibble of byte `j % 16`, minus 8.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn load(block: &[u8]) -> Wide {
    use crate::q8_0_kernel::lanes::widen_bytes;
    use std::arch::wasm32::*;
    assert!(block.len() == Q4_0_BYTES);
    // SAFETY: `block` holds 18 bytes (asserted): the 16-byte load at 2 ends
    // at 18; v128 loads need no alignment.
    let q = unsafe { v128_load(block.as_ptr().add(2) as *const v128) };
    let lo = i8x16_sub(v128_and(q, u8x16_splat(0x0F)), i8x16_splat(8));
    let hi = i8x16_sub(u8x16_shr(q, 4), i8x16_splat(8));
    widen_bytes(lo, hi)
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn load(block: &[u8]) -> Wide {
    assert!(block.len() == Q4_0_BYTES);
    std::array::from_fn(|j| {
        let byte = block[2 + j % 16];
        let nibble = if j < 16 { byte & 0x0F } else { byte >> 4 };
        nibble as i16 - 8
    })
}
