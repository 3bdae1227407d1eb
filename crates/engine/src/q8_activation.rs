//! What the engine's own kernels (`q5_0_kernel`, `q8_0_kernel`) share: an
//! input row quantized to Q8_0 blocks as candle quantizes it before a
//! quantized product, so their products stay bit-identical to candle's, and
//! a block's f16 scale read as f32.

use half::f16;

/// Values per block.
pub const QK: usize = 32;

/// One row's Q8_0 blocks: scales, and 32 signed values per block.
pub(crate) struct Q8Row {
    pub d: Vec<f32>,
    pub qs: Vec<[i8; QK]>,
}

/// A row quantized to Q8_0 as candle's `BlockQ8_0::from_float` does it
/// (scale `amax / 127` kept as f16, values rounded half away from zero).
pub(crate) fn quantize_row(x: &[f32]) -> Q8Row {
    let blocks = x.len() / QK;
    let mut row = Q8Row {
        d: Vec::with_capacity(blocks),
        qs: Vec::with_capacity(blocks),
    };
    for xs in x.chunks_exact(QK) {
        let xs: &[f32; QK] = xs.try_into().expect("chunks of QK");
        let amax = block::amax(xs);
        let d = amax / 127.0;
        let id = if d != 0.0 { 1.0 / d } else { 0.0 };
        // The product scales by the f16 scale, as candle's does.
        row.d.push(f16::from_f32(d).to_f32());
        row.qs.push(block::rounded(xs, id));
    }
    row
}

/// A block's largest magnitude and its values scaled and rounded.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod block {
    use super::QK;

    pub fn amax(xs: &[f32; QK]) -> f32 {
        xs.iter().fold(0f32, |m, &v| m.max(v.abs()))
    }

    pub fn rounded(xs: &[f32; QK], id: f32) -> [i8; QK] {
        xs.map(|v| (v * id).round() as i8)
    }
}

/// The same with wasm SIMD, the same bits: `f32::round` is a libm call per
/// value in wasm (it has no rounding half away from zero), which with the
/// rows quantized once per product still cost ≈ 2 % of a Q8_0 step.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod block {
    use super::QK;
    use std::arch::wasm32::*;

    fn load(xs: &[f32; QK], i: usize) -> v128 {
        assert!(i + 4 <= QK);
        // SAFETY: `i + 4 <= 32` (asserted): the 16-byte load is in bounds.
        unsafe { v128_load(xs.as_ptr().add(i) as *const v128) }
    }

    /// `pmax` keeps the running maximum when a value is NaN, as `f32::max`
    /// does; without NaNs a maximum is the same in any order.
    pub fn amax(xs: &[f32; QK]) -> f32 {
        let mut m = f32x4_splat(0.0);
        for i in (0..QK).step_by(4) {
            m = f32x4_pmax(m, f32x4_abs(load(xs, i)));
        }
        let lanes = [
            f32x4_extract_lane::<0>(m),
            f32x4_extract_lane::<1>(m),
            f32x4_extract_lane::<2>(m),
            f32x4_extract_lane::<3>(m),
        ];
        lanes.into_iter().fold(0f32, f32::max)
    }

    /// `v · id` rounded half away from zero — truncated, then one step out
    /// when the part cut off (exact) is at least a half; NaN and infinities
    /// pass through as they are — and converted with saturation, as `as i8`
    /// converts.
    pub fn rounded(xs: &[f32; QK], id: f32) -> [i8; QK] {
        let id = f32x4_splat(id);
        let round = |i: usize| {
            let v = f32x4_mul(load(xs, i), id);
            let t = f32x4_trunc(v);
            let up = f32x4_ge(f32x4_abs(f32x4_sub(v, t)), f32x4_splat(0.5));
            let step = v128_or(v128_and(v, u32x4_splat(0x8000_0000)), f32x4_splat(1.0));
            i32x4_trunc_sat_f32x4(v128_bitselect(f32x4_add(t, step), t, up))
        };
        let bytes = |i: usize| {
            i8x16_narrow_i16x8(
                i16x8_narrow_i32x4(round(i), round(i + 4)),
                i16x8_narrow_i32x4(round(i + 8), round(i + 12)),
            )
        };
        let mut out = [0i8; QK];
        // SAFETY: `out` holds 32 bytes: the 16-byte stores at 0 and 16 are
        // in bounds; v128 stores need no alignment.
        unsafe {
            v128_store(out.as_mut_ptr() as *mut v128, bytes(0));
            v128_store(out.as_mut_ptr().add(16) as *mut v128, bytes(16));
        }
        out
    }
}

/// An f16 block scale as f32, exactly, with no f32 subnormal in any step
/// (x86 takes a slow assist on those): a normal half's exponent rebased by
/// an integer add, a subnormal one's mantissa scaled by 2^-24, the library's
/// branchy conversion for infinities and NaN.
#[inline(always)]
pub(crate) fn block_scale(lo: u8, hi: u8) -> f32 {
    let bits = u16::from_le_bytes([lo, hi]);
    let magnitude = match bits & 0x7C00 {
        0x7C00 => return f16::from_bits(bits).to_f32(),
        0 => (bits & 0x03FF) as f32 * f32::from_bits(0x3380_0000),
        _ => f32::from_bits((((bits & 0x7FFF) as u32) << 13) + (112 << 23)),
    };
    if bits & 0x8000 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

#[cfg(test)]
mod tests {
    use super::block_scale;
    use half::f16;

    #[test]
    fn a_block_scale_converts_exactly_as_the_half_crate_does() {
        for bits in 0..=u16::MAX {
            let [lo, hi] = bits.to_le_bytes();
            let want = f16::from_bits(bits).to_f32();
            let got = block_scale(lo, hi);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{bits:#06x}: {got} vs {want}"
            );
        }
    }
}
