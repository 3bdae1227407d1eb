//! A weight matrix kept in a GGUF file's block format (Q8_0, Q4_0, the
//! K-quants…): multiplied by candle's quantized kernels, which quantize each
//! input row to 8 bits per block as llama.cpp's CPU backend does, and looked
//! up row by row, so an embedding table stays quantized and a step
//! dequantizes only the rows it reads.

use candle_core::quantized::{ggml_file::qtensor_from_ggml, GgmlDType, QMatMul, QTensor};
use candle_core::{Device, Module, Result, Tensor};
use std::sync::Arc;

pub(crate) struct QuantizedMatrix {
    /// `[n, k]`: `n` output rows of `k` inputs, each row its own blocks.
    w: Arc<QTensor>,
    n: usize,
    k: usize,
}

impl QuantizedMatrix {
    pub fn new(w: QTensor) -> Result<QuantizedMatrix> {
        let (n, k) = w.shape().dims2()?;
        Ok(QuantizedMatrix {
            w: Arc::new(w),
            n,
            k,
        })
    }

    pub fn dtype(&self) -> GgmlDType {
        self.w.dtype()
    }

    /// `x` (`[rows, k]`) times the matrix: `[rows, n]`.
    pub fn matmul(&self, x: &Tensor) -> Result<Tensor> {
        let (rows, k) = x.dims2()?;
        if k != self.k {
            candle_core::bail!(
                "a [{rows}, {k}] input against a matrix over {} inputs",
                self.k
            );
        }
        QMatMul::QTensor(self.w.clone()).forward(&x.contiguous()?)
    }

    /// Rows `ids`, dequantized, `[ids.len(), k]` in f32: an embedding lookup.
    pub fn embed(&self, ids: &[u32]) -> Result<Tensor> {
        if let Some(&id) = ids.iter().find(|&&id| id as usize >= self.n) {
            candle_core::bail!("token id {id} is past the embedding's {} rows", self.n);
        }
        let ids = Tensor::from_slice(ids, ids.len(), &Device::Cpu)?;
        self.w.embedding(&ids)
    }

    /// Matrices over the same inputs in the same block format as one, their
    /// rows one after another (each row's blocks are its own, so this is
    /// their bytes end to end); `None` when they differ (a K-quant mix keeps
    /// `attn_v` in a wider type than `attn_q`).
    pub fn stacked(parts: &[&QuantizedMatrix]) -> Option<Result<QuantizedMatrix>> {
        let first = parts.first()?;
        if parts
            .iter()
            .any(|p| p.dtype() != first.dtype() || p.k != first.k)
        {
            return None;
        }
        let stack = || {
            let mut bytes = Vec::new();
            for p in parts {
                bytes.extend_from_slice(&p.w.data()?);
            }
            let n = parts.iter().map(|p| p.n).sum::<usize>();
            QuantizedMatrix::new(qtensor_from_ggml(
                first.dtype(),
                &bytes,
                vec![n, first.k],
                &Device::Cpu,
            )?)
        };
        Some(stack())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quantized(rows: &[f32], n: usize, k: usize, dtype: GgmlDType) -> QuantizedMatrix {
        let t = Tensor::from_slice(rows, (n, k), &Device::Cpu).unwrap();
        QuantizedMatrix::new(QTensor::quantize(&t, dtype).unwrap()).unwrap()
    }

    fn ramp(n: usize, k: usize, scale: f32) -> Vec<f32> {
        (0..n * k)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) * scale)
            .collect()
    }

    #[test]
    fn a_q8_0_product_is_close_to_the_f32_one() {
        let (n, k) = (8, 64);
        let w = ramp(n, k, 0.01);
        let x = Tensor::from_slice(&ramp(2, k, 0.02), (2, k), &Device::Cpu).unwrap();
        let q = quantized(&w, n, k, GgmlDType::Q8_0).matmul(&x).unwrap();
        let wt = Tensor::from_slice(&w, (n, k), &Device::Cpu).unwrap();
        let exact = x.matmul(&wt.t().unwrap()).unwrap();
        let (q, exact): (Vec<Vec<f32>>, Vec<Vec<f32>>) =
            (q.to_vec2().unwrap(), exact.to_vec2().unwrap());
        // Both sides are rounded to 8 bits a block: about 1 % of the
        // outputs' scale, not of each (possibly cancelling) sum.
        let scale = exact.iter().flatten().fold(0f32, |m, v| m.max(v.abs()));
        for (qr, er) in q.iter().zip(&exact) {
            for (a, b) in qr.iter().zip(er) {
                assert!((a - b).abs() < 0.02 * scale, "{a} vs {b} (scale {scale})");
            }
        }
    }

    #[test]
    fn an_embedding_reads_its_rows_dequantized() {
        let (n, k) = (5, 32);
        let w = ramp(n, k, 0.1);
        let m = quantized(&w, n, k, GgmlDType::Q8_0);
        let rows: Vec<Vec<f32>> = m.embed(&[3, 0]).unwrap().to_vec2().unwrap();
        for (got, want) in rows[0].iter().zip(&w[3 * k..4 * k]) {
            assert!((got - want).abs() < 0.05, "{got} vs {want}");
        }
        let e = m.embed(&[5]).unwrap_err();
        assert!(e.to_string().contains("token id 5"), "{e}");
    }

    #[test]
    fn stacking_keeps_each_part_s_products() {
        let k = 32;
        let a = quantized(&ramp(3, k, 0.1), 3, k, GgmlDType::Q4_0);
        let b = quantized(&ramp(2, k, 0.3), 2, k, GgmlDType::Q4_0);
        let x = Tensor::from_slice(&ramp(1, k, 0.05), (1, k), &Device::Cpu).unwrap();
        let both = QuantizedMatrix::stacked(&[&a, &b]).unwrap().unwrap();
        let got: Vec<f32> = both
            .matmul(&x)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        let mut want: Vec<f32> = a
            .matmul(&x)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        want.extend(
            b.matmul(&x)
                .unwrap()
                .flatten_all()
                .unwrap()
                .to_vec1::<f32>()
                .unwrap(),
        );
        assert_eq!(got, want);
        let c = quantized(&ramp(2, k, 0.3), 2, k, GgmlDType::Q8_0);
        assert!(QuantizedMatrix::stacked(&[&a, &c]).is_none());
    }
}
