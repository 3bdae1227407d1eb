//! Where a family's loader takes its tensors from, by their HF names: a
//! safetensors checkpoint (`checkpoint`) or a GGUF file (`gguf_weights`),
//! so each family is loaded by one function whatever the file.

use crate::error::LoadError;
use crate::matmul::{Layout, Matrix};
use candle_core::Tensor;

pub(crate) trait Weights {
    /// The tensor at `key` in f32 (norms, biases, positions), its shape checked.
    fn take(&mut self, key: &str, shape: &[usize], hint: &str) -> Result<Tensor, LoadError>;

    /// The weight matrix of `n` outputs over `k` inputs at `key`, which an
    /// HF checkpoint stores as `layout` says.
    fn take_matrix(
        &mut self,
        key: &str,
        layout: Layout,
        nk: [usize; 2],
        hint: &str,
    ) -> Result<Matrix, LoadError>;

    /// Whether GPT-2's head (`lm_head.weight`) is stored apart from its
    /// embeddings. An HF GPT-2 always ties them; a GGUF file may carry its
    /// own `output.weight` (quantized on its own), which llama.cpp then uses.
    fn has_gpt2_head(&self) -> bool {
        false
    }
}

impl Weights for crate::checkpoint::Checkpoint<'_> {
    fn take(&mut self, key: &str, shape: &[usize], hint: &str) -> Result<Tensor, LoadError> {
        crate::checkpoint::Checkpoint::take(self, key, shape, hint)
    }

    fn take_matrix(
        &mut self,
        key: &str,
        layout: Layout,
        nk: [usize; 2],
        hint: &str,
    ) -> Result<Matrix, LoadError> {
        crate::matmul::take_matrix(self, key, layout, nk, hint)
    }
}
