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
        let amax = xs.iter().fold(0f32, |m, &v| m.max(v.abs()));
        let d = amax / 127.0;
        let id = if d != 0.0 { 1.0 / d } else { 0.0 };
        let mut qs = [0i8; QK];
        for (q, &v) in qs.iter_mut().zip(xs) {
            *q = (v * id).round() as i8;
        }
        // The product scales by the f16 scale, as candle's does.
        row.d.push(f16::from_f32(d).to_f32());
        row.qs.push(qs);
    }
    row
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
