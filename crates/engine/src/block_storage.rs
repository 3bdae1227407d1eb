//! A quantized tensor's storage filled in place: a GGUF file's blocks are
//! copied once, from the downloaded bytes straight into the blocks the
//! kernels read, instead of through a byte buffer and candle's copy of it.

use candle_core::quantized::k_quants::{
    BlockQ2K, BlockQ3K, BlockQ4K, BlockQ4_0, BlockQ4_1, BlockQ5K, BlockQ5_0, BlockQ5_1, BlockQ6K,
    BlockQ8K, BlockQ8_0, BlockQ8_1, GgmlType,
};
use candle_core::quantized::{GgmlDType, QStorage, QTensor, QuantizedType};
use candle_core::Result;

/// Bytes per block as ggml lays them out. The block types match these
/// sizes field for field, so they have no padding: every byte of their
/// memory is a byte of the file.
const fn ggml_block_bytes(dtype: GgmlDType) -> Option<usize> {
    Some(match dtype {
        GgmlDType::Q4_0 => 18,
        GgmlDType::Q4_1 => 20,
        GgmlDType::Q5_0 => 22,
        GgmlDType::Q5_1 => 24,
        GgmlDType::Q8_0 => 34,
        GgmlDType::Q8_1 => 36,
        GgmlDType::Q2K => 84,
        GgmlDType::Q3K => 110,
        GgmlDType::Q4K => 144,
        GgmlDType::Q5K => 176,
        GgmlDType::Q6K => 210,
        GgmlDType::Q8K => 292,
        _ => return None,
    })
}

/// A `[rows, k]` tensor of `dtype`'s blocks whose bytes `fill` writes (all
/// of them, in the file's layout), or `fill`'s error.
pub fn filled(
    dtype: GgmlDType,
    rows: usize,
    k: usize,
    fill: impl FnOnce(&mut [u8]) -> Result<()>,
) -> Result<QTensor> {
    let blocks = rows * (k / dtype.block_size());
    let storage = match dtype {
        GgmlDType::Q4_0 => of::<BlockQ4_0>(blocks, fill)?,
        GgmlDType::Q4_1 => of::<BlockQ4_1>(blocks, fill)?,
        GgmlDType::Q5_0 => of::<BlockQ5_0>(blocks, fill)?,
        GgmlDType::Q5_1 => of::<BlockQ5_1>(blocks, fill)?,
        GgmlDType::Q8_0 => of::<BlockQ8_0>(blocks, fill)?,
        GgmlDType::Q8_1 => of::<BlockQ8_1>(blocks, fill)?,
        GgmlDType::Q2K => of::<BlockQ2K>(blocks, fill)?,
        GgmlDType::Q3K => of::<BlockQ3K>(blocks, fill)?,
        GgmlDType::Q4K => of::<BlockQ4K>(blocks, fill)?,
        GgmlDType::Q5K => of::<BlockQ5K>(blocks, fill)?,
        GgmlDType::Q6K => of::<BlockQ6K>(blocks, fill)?,
        GgmlDType::Q8K => of::<BlockQ8K>(blocks, fill)?,
        other => candle_core::bail!("{other:?} is not a block format"),
    };
    QTensor::new(QStorage::Cpu(storage), (rows, k))
}

fn of<T: GgmlType + Send + Sync + 'static>(
    blocks: usize,
    fill: impl FnOnce(&mut [u8]) -> Result<()>,
) -> Result<Box<dyn QuantizedType>> {
    if Some(std::mem::size_of::<T>()) != ggml_block_bytes(T::DTYPE) {
        candle_core::bail!(
            "candle's {:?} blocks are {} bytes, not ggml's (an engine fault: report it)",
            T::DTYPE,
            std::mem::size_of::<T>()
        );
    }
    let mut v: Vec<T> = (0..blocks).map(|_| T::zeros()).collect();
    let len = std::mem::size_of_val(v.as_slice());
    // SAFETY: `v` holds `len` initialised bytes (zeroed blocks without
    // padding: the size check above), and a block type is plain data (f16
    // scales and byte arrays), so any bytes `fill` writes make valid blocks.
    let bytes = unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), len) };
    fill(bytes)?;
    Ok(Box::new(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Tensor};

    #[test]
    fn every_block_format_is_filled_with_the_file_s_bytes_as_candle_reads_them() {
        for dtype in [
            GgmlDType::Q4_0,
            GgmlDType::Q4_1,
            GgmlDType::Q5_0,
            GgmlDType::Q5_1,
            GgmlDType::Q8_0,
            GgmlDType::Q2K,
            GgmlDType::Q3K,
            GgmlDType::Q4K,
            GgmlDType::Q5K,
            GgmlDType::Q6K,
        ] {
            let (rows, k) = (3, 512);
            let values: Vec<f32> = (0..rows * k)
                .map(|i| ((i * 37 % 101) as f32 - 50.0) * 0.01)
                .collect();
            let t = Tensor::from_slice(&values, (rows, k), &Device::Cpu).unwrap();
            let q = QTensor::quantize(&t, dtype).unwrap();
            let file = q.data().unwrap().into_owned();
            let read = filled(dtype, rows, k, |dst| {
                dst.copy_from_slice(&file);
                Ok(())
            })
            .unwrap();
            assert_eq!(read.data().unwrap().as_ref(), file.as_slice(), "{dtype:?}");
            let back = |q: &QTensor| {
                q.dequantize(&Device::Cpu)
                    .unwrap()
                    .flatten_all()
                    .unwrap()
                    .to_vec1::<f32>()
                    .unwrap()
            };
            assert_eq!(back(&read), back(&q), "{dtype:?}");
        }
        assert!(
            filled(GgmlDType::F32, 1, 32, |_| Ok(())).is_err(),
            "floats are not blocks"
        );
    }
}
