//! Seed 004's MiniGPT (`dnnlpy.models.gpt.MiniGPT`) in one file, as dnnlpy
//! computes it: learned token and position embeddings summed, pre-LayerNorm
//! blocks (`x + attn(norm1(x))`, `x + mlp(norm2(x))`), attention with
//! separate q/k/v/out projections (stacked here into one q|k|v product), an
//! MLP `Linear(d, hidden_dim) → exact (erf) GELU → Linear(hidden_dim, d)`,
//! a final LayerNorm and a head tied to the token embedding or its own.
//! Every `Linear` is `nn.Linear`'s `[out, in]`; biases (and the LayerNorms'
//! biases) are there when the model was built with `bias=True`.
//!
//! `forward` is stateless, like the other families': the caller passes the
//! cache in and gets the extended one back.

use crate::attention::{after_cached, attend, causal_mask, split_qkv};
use crate::checkpoint::Checkpoint;
use crate::error::LoadError;
use crate::kv_cache::KvCache;
use crate::matmul::{Layout, Matrix};
use crate::model_config::minigpt::LAYER_NORM_EPS;
use crate::model_config::ModelConfig;
use crate::output::{take_taps, Output};
use crate::weights::Weights;
use candle_core::{Module, Result, Tensor};
use candle_nn::LayerNorm;

struct Linear {
    weight: Matrix,
    bias: Option<Tensor>,
}

impl Linear {
    fn forward(&self, x2d: &Tensor) -> Result<Tensor> {
        let y = self.weight.matmul(x2d)?;
        match &self.bias {
            Some(b) => y.broadcast_add(b),
            None => Ok(y),
        }
    }
}

struct Block {
    norm1: LayerNorm,
    /// `q_proj`, `k_proj`, `v_proj` stacked: one product instead of three,
    /// each output the same dot product.
    qkv: Linear,
    out_proj: Linear,
    norm2: LayerNorm,
    fc: Linear,
    proj: Linear,
}

pub struct MiniGpt {
    pub cfg: ModelConfig,
    token_embed: Matrix,
    /// `None`: the head is `token_embed` (`weight_tying`).
    lm_head: Option<Matrix>,
    pos_embed: Tensor,
    blocks: Vec<Block>,
    final_norm: LayerNorm,
    hidden_dim: usize,
    bias: bool,
}

impl MiniGpt {
    pub fn load(
        cfg: ModelConfig,
        hidden_dim: usize,
        bias: bool,
        weight_tying: bool,
        ck: &mut dyn Weights,
    ) -> std::result::Result<MiniGpt, LoadError> {
        let d = cfg.n_embd;
        let hint = Checkpoint::hint(&cfg);
        let ln = |ck: &mut dyn Weights, p: &str| -> std::result::Result<LayerNorm, LoadError> {
            let w = ck.take(&format!("{p}.weight"), &[d], &hint)?;
            Ok(if bias {
                LayerNorm::new(
                    w,
                    ck.take(&format!("{p}.bias"), &[d], &hint)?,
                    LAYER_NORM_EPS,
                )
            } else {
                LayerNorm::new_no_bias(w, LAYER_NORM_EPS)
            })
        };
        let lin = |ck: &mut dyn Weights,
                   p: &str,
                   i: usize,
                   o: usize|
         -> std::result::Result<Linear, LoadError> {
            Ok(Linear {
                weight: ck.take_matrix(&format!("{p}.weight"), Layout::OutIn, [o, i], &hint)?,
                bias: match bias {
                    true => Some(ck.take(&format!("{p}.bias"), &[o], &hint)?),
                    false => None,
                },
            })
        };
        let token_embed = ck.take_matrix(
            "token_embed.weight",
            Layout::OutIn,
            [cfg.vocab_size, d],
            &hint,
        )?;
        let pos_embed = ck.take("pos_embed.weight", &[cfg.n_positions, d], &hint)?;
        let mut blocks = Vec::with_capacity(cfg.n_layer);
        for l in 0..cfg.n_layer {
            let p = format!("blocks.{l}");
            let a = format!("{p}.attn.attn");
            let q = lin(ck, &format!("{a}.q_proj"), d, d)?;
            let k = lin(ck, &format!("{a}.k_proj"), d, d)?;
            let v = lin(ck, &format!("{a}.v_proj"), d, d)?;
            let stacked_bias = match (q.bias, k.bias, v.bias) {
                (Some(q), Some(k), Some(v)) => {
                    Some(Tensor::cat(&[q, k, v], 0).map_err(|e| LoadError::Weights {
                        message: format!("{a}: {e}"),
                        source: Some(e),
                    })?)
                }
                _ => None,
            };
            let qkv = Linear {
                weight: Matrix::stacked(vec![q.weight, k.weight, v.weight]).map_err(|e| {
                    LoadError::Weights {
                        message: format!("{a}: {e}"),
                        source: Some(e),
                    }
                })?,
                bias: stacked_bias,
            };
            blocks.push(Block {
                norm1: ln(ck, &format!("{p}.norm1"))?,
                qkv,
                out_proj: lin(ck, &format!("{a}.out_proj"), d, d)?,
                norm2: ln(ck, &format!("{p}.norm2"))?,
                fc: lin(ck, &format!("{p}.mlp.net.0"), d, hidden_dim)?,
                proj: lin(ck, &format!("{p}.mlp.net.2"), hidden_dim, d)?,
            });
        }
        let final_norm = ln(ck, "final_norm")?;
        let lm_head = match weight_tying {
            true => None,
            false => {
                Some(ck.take_matrix("lm_head.weight", Layout::OutIn, [cfg.vocab_size, d], &hint)?)
            }
        };
        Ok(MiniGpt {
            cfg,
            token_embed,
            lm_head,
            pos_embed,
            blocks,
            final_norm,
            hidden_dim,
            bias,
        })
    }

    pub fn parameter_count(&self) -> usize {
        let (d, h) = (self.cfg.n_embd, self.hidden_dim);
        let b = usize::from(self.bias);
        let ln = d + b * d;
        let per_block = 2 * ln + 4 * (d * d + b * d) + (d * h + b * h) + (h * d + b * d);
        let head = if self.lm_head.is_some() {
            self.cfg.vocab_size * d
        } else {
            0
        };
        self.cfg.vocab_size * d
            + self.cfg.n_positions * d
            + self.cfg.n_layer * per_block
            + ln
            + head
    }

    /// As GPT-2's `forward`: `tokens` (`rows * t` ids) after `cache`; `exits`
    /// are (row, layer) pairs read as each layer is entered.
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
        let pos = self.pos_embed.narrow(0, past, t)?;
        let mut x = self
            .token_embed
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
            let a = b.norm1.forward(&x)?.reshape((rows * t, d))?;
            let qkv = b.qkv.forward(&a)?.reshape((rows, t, 3, h, hd))?;
            let (q, k, v) = split_qkv(&qkv)?;
            let ((k, v), kept) = after_cached(cache.map(|c| c.layer(l)), k, v)?;
            let y = attend(&q, &k, &v, scale, mask.as_ref())?
                .transpose(1, 2)?
                .reshape((rows * t, d))?;
            x = (x + b.out_proj.forward(&y)?.reshape((rows, t, d))?)?;
            let m = b.norm2.forward(&x)?.reshape((rows * t, d))?;
            let m = b.proj.forward(&b.fc.forward(&m)?.gelu_erf()?)?;
            x = (x + m.reshape((rows, t, d))?)?;
            layers.push(kept);
        }
        let hidden = self.final_norm.forward(&x)?;
        Output::finish(hidden, KvCache::after(cache, layers), taps, |rows| {
            self.head(rows)
        })
    }

    /// The final norm on `rows` (`[rows, d]`), as the last layer's output gets it.
    pub fn final_norm_rows(&self, rows: &Tensor) -> Result<Tensor> {
        self.final_norm.forward(rows)
    }

    /// The logits after each of `rows` (`[rows, d]` final hidden states).
    pub fn head_rows(&self, rows: &Tensor) -> Result<Tensor> {
        self.head(rows)
    }

    fn head(&self, last: &Tensor) -> Result<Tensor> {
        self.lm_head
            .as_ref()
            .unwrap_or(&self.token_embed)
            .matmul(last)
    }

    pub fn tied_head(&self) -> bool {
        self.lm_head.is_none()
    }
}
