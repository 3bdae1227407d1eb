//! An input row quantized to Q8_0 blocks as candle quantizes it before a
//! quantized product, shared by the engine's own kernels (`q5_0_kernel`,
//! `q8_0_kernel`) so their products stay bit-identical to candle's.

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
