//! GPT-2's activation: GELU with the tanh approximation (HF's `gelu_new`),
//! elementwise, shared out over the worker's threads. The formula and
//! constant are candle's own (`Tensor::gelu`), so the bits are the same as
//! candle's on one thread; four lanes' MLP activations are 74k `tanh` calls a
//! step, ≈ 1.8 ms on one wasm thread.

use candle_core::{Device, Result, Tensor};

/// candle writes √(2/π) with f64 digits; this is the same f32.
const SQRT_TWO_OVER_PI: f32 = 0.797_884_6;

/// Fewer elements than this per thread are not worth a wake-up.
const MIN_PER_PART: usize = 1024;

fn gelu_one(v: f32) -> f32 {
    0.5 * v * (1.0 + f32::tanh(SQRT_TWO_OVER_PI * v * (1.0 + 0.044715 * v * v)))
}

/// `gelu_new` of an f32 tensor, any shape.
pub fn gelu(x: &Tensor) -> Result<Tensor> {
    let src = x.flatten_all()?.to_vec1::<f32>()?;
    let mut out = vec![0f32; src.len()];
    let dst = ntl_parallel::Disjoint::new(&mut out);
    ntl_parallel::split(src.len(), MIN_PER_PART, &|range| {
        // SAFETY: each thread writes only its own range.
        let part = unsafe { dst.slice(range.clone()) };
        for (o, &v) in part.iter_mut().zip(&src[range]) {
            *o = gelu_one(v);
        }
    });
    Tensor::from_vec(out, x.shape(), &Device::Cpu)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bits_as_candles_gelu() {
        let values: Vec<f32> = (-4000..4000)
            .map(|i| i as f32 * 0.0025)
            .chain([0.0, -0.0, 1e-30, -1e-30, 30.0, -30.0, 1e4, -1e4])
            .collect();
        let x = Tensor::from_vec(values.clone(), (values.len() / 8, 8), &Device::Cpu).unwrap();
        let ours: Vec<u32> = gelu(&x)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1::<f32>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect();
        let theirs: Vec<u32> = x
            .gelu()
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1::<f32>()
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect();
        assert_eq!(ours, theirs);
    }
}
