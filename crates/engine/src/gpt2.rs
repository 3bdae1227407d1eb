//! GPT-2 in one file: learned positions, pre-LN blocks, fused `c_attn`
//! (q|k|v thirds), `gelu_new`, `lm_head` tied to `wte`. HF stores its "Conv1D"
//! weights `[in, out]`; natively `x @ W + b` uses them as stored, in wasm they
//! are packed once at load into the small-batch kernel's panels
//! (`skinny_matmul`), `wte` too (the embedding lookup reads its panels), and
//! F16/BF16 matrices stay 16-bit there.
//! `forward` is stateless: the caller passes the cache in and gets the
//! extended one back.

use crate::attention::{after_cached, attend, causal_mask, split_qkv};
use crate::checkpoint::Checkpoint;
use crate::error::LoadError;
use crate::kv_cache::KvCache;
use crate::matmul::{Layout, Matrix};
use crate::model_config::ModelConfig;
use crate::output::{take_taps, Output};
use crate::weights::Weights;
use candle_core::{Module, Result, Tensor};
use candle_nn::LayerNorm;

struct Linear {
    weight: Matrix,
    bias: Tensor,
}

impl Linear {
    fn forward(&self, x2d: &Tensor) -> Result<Tensor> {
        self.weight.matmul(x2d)?.broadcast_add(&self.bias)
    }
}

struct Block {
    ln_1: LayerNorm,
    c_attn: Linear,
    c_proj: Linear,
    ln_2: LayerNorm,
    c_fc: Linear,
    mlp_proj: Linear,
}

pub struct Gpt2 {
    pub cfg: ModelConfig,
    /// The token embeddings, and the head tied to them.
    wte: Matrix,
    /// A head of its own, where a GGUF file stores one (`output.weight`).
    head: Option<Matrix>,
    wpe: Tensor,
    blocks: Vec<Block>,
    ln_f: LayerNorm,
}

impl Gpt2 {
    /// `eps`: the config's `layer_norm_epsilon` (its `Family::Gpt2`).
    pub fn load(
        cfg: ModelConfig,
        eps: f64,
        ck: &mut dyn Weights,
    ) -> std::result::Result<Gpt2, LoadError> {
        let d = cfg.n_embd;
        let hint = Checkpoint::hint(&cfg);
        let ln = |ck: &mut dyn Weights, p: &str| -> std::result::Result<LayerNorm, LoadError> {
            Ok(LayerNorm::new(
                ck.take(&format!("{p}.weight"), &[d], &hint)?,
                ck.take(&format!("{p}.bias"), &[d], &hint)?,
                eps,
            ))
        };
        let lin = |ck: &mut dyn Weights,
                   p: &str,
                   i: usize,
                   o: usize|
         -> std::result::Result<Linear, LoadError> {
            Ok(Linear {
                weight: ck.take_matrix(&format!("{p}.weight"), Layout::InOut, [o, i], &hint)?,
                bias: ck.take(&format!("{p}.bias"), &[o], &hint)?,
            })
        };
        let wte = ck.take_matrix("wte.weight", Layout::OutIn, [cfg.vocab_size, d], &hint)?;
        let wpe = ck.take("wpe.weight", &[cfg.n_positions, d], &hint)?;
        let mut blocks = Vec::with_capacity(cfg.n_layer);
        for l in 0..cfg.n_layer {
            let p = format!("h.{l}");
            blocks.push(Block {
                ln_1: ln(ck, &format!("{p}.ln_1"))?,
                c_attn: lin(ck, &format!("{p}.attn.c_attn"), d, 3 * d)?,
                c_proj: lin(ck, &format!("{p}.attn.c_proj"), d, d)?,
                ln_2: ln(ck, &format!("{p}.ln_2"))?,
                c_fc: lin(ck, &format!("{p}.mlp.c_fc"), d, 4 * d)?,
                mlp_proj: lin(ck, &format!("{p}.mlp.c_proj"), 4 * d, d)?,
            });
        }
        let ln_f = ln(ck, "ln_f")?;
        let head = if ck.has_gpt2_head() {
            Some(ck.take_matrix("lm_head.weight", Layout::OutIn, [cfg.vocab_size, d], &hint)?)
        } else {
            None
        };
        Ok(Gpt2 {
            cfg,
            wte,
            head,
            wpe,
            blocks,
            ln_f,
        })
    }

    pub fn parameter_count(&self) -> usize {
        let d = self.cfg.n_embd;
        let per_block =
            2 * 2 * d + (d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d);
        self.cfg.vocab_size * d + self.cfg.n_positions * d + self.cfg.n_layer * per_block + 2 * d
    }

    /// Feeds `tokens` (`rows * t` ids, row-major) after `cache` (or from
    /// scratch). `exits` are (row, layer) pairs: the head's logits on that
    /// row's last position as it enters that layer (0 = the embeddings), as
    /// HF's `hidden_states[layer]` through `lm_head` (no final layer norm).
    pub fn forward(
        &self,
        tokens: &[u32],
        rows: usize,
        cache: Option<&KvCache>,
        exits: &[(usize, usize)],
    ) -> Result<Output> {
        let t = tokens.len() / rows;
        let past = cache.map(|c| c.len()).unwrap_or(0);
        let (d, h, hd) = (self.cfg.n_embd, self.cfg.n_head, self.cfg.head_dim());
        let pos = self.wpe.narrow(0, past, t)?;
        let mut x = self
            .wte
            .embed(tokens)?
            .reshape((rows, t, d))?
            .broadcast_add(&pos)?;
        let mask = (t > 1)
            .then(|| causal_mask(t, past + t, past))
            .transpose()?;
        let scale = 1.0 / (hd as f64).sqrt();
        let mut layers = Vec::with_capacity(self.blocks.len());
        let mut taps: Vec<Option<Tensor>> = vec![None; exits.len()];
        for (l, b) in self.blocks.iter().enumerate() {
            take_taps(&mut taps, exits, l, &x)?;
            let a = b.ln_1.forward(&x)?.reshape((rows * t, d))?;
            let qkv = b.c_attn.forward(&a)?.reshape((rows, t, 3, h, hd))?;
            let (q, k, v) = split_qkv(&qkv)?;
            let ((k, v), kept) = after_cached(cache.map(|c| c.layer(l)), k, v)?;
            let y = attend(&q, &k, &v, scale, mask.as_ref())?
                .transpose(1, 2)?
                .reshape((rows * t, d))?;
            x = (x + b.c_proj.forward(&y)?.reshape((rows, t, d))?)?;
            let m = b.ln_2.forward(&x)?.reshape((rows * t, d))?;
            let m = b
                .mlp_proj
                .forward(&crate::gelu::gelu(&b.c_fc.forward(&m)?)?)?;
            x = (x + m.reshape((rows, t, d))?)?;
            layers.push(kept);
        }
        let hidden = self.ln_f.forward(&x)?;
        Output::finish(hidden, KvCache::after(cache, layers), taps, |rows| {
            self.head(rows)
        })
    }
}

impl Gpt2 {
    /// The final norm on `rows` (`[rows, d]`), as the last layer's output gets it.
    pub fn final_norm_rows(&self, rows: &Tensor) -> Result<Tensor> {
        self.ln_f.forward(rows)
    }

    /// The logits after each of `rows` (`[rows, d]` final hidden states).
    pub fn head_rows(&self, rows: &Tensor) -> Result<Tensor> {
        self.head(rows)
    }

    /// `last` (`[rows, d]`) against the tied `wte` (`[vocab, d]`), or the
    /// file's own head.
    fn head(&self, last: &Tensor) -> Result<Tensor> {
        self.head.as_ref().unwrap_or(&self.wte).matmul(last)
    }

    /// Whether the head is `wte` itself.
    pub fn tied_head(&self) -> bool {
        self.head.is_none()
    }
}
