//! The Llama family in one file: `LlamaForCausalLM` (SmolLM2) and
//! `Qwen2ForCausalLM` (Qwen2.5, which adds q/k/v biases). Pre-norm blocks
//! with RMSNorm, rotary positions (HF's halves layout), grouped-query
//! attention, a SwiGLU MLP, and a head tied to the embeddings or its own.
//!
//! Written in the style of `candle-transformers`' `llama.rs` (its names),
//! not with it: there the cache lives inside the model or
//! a `&mut Cache` and only the last position's logits come back, where lanes,
//! beams and branches need a cache that is a value (selected, duplicated,
//! reordered by rows) and contrastive search, DoLa and the inspector need
//! the hidden states and early exits. See ARCHITECTURE.md.
//!
//! `forward` is stateless, like GPT-2's: the caller passes the cache in and
//! gets the extended one back. Matrices are read `[out, in]` as `nn.Linear`
//! stores them; in wasm they are packed at load into the small-batch
//! kernel's panels (`matmul::Matrix`).

use crate::attention::{after_cached, attend, causal_mask};
use crate::checkpoint::Checkpoint;
use crate::error::LoadError;
use crate::kv_cache::KvCache;
use crate::matmul::{Layout, Matrix};
use crate::model_config::LlamaShape;
use crate::model_config::ModelConfig;
use crate::output::{take_taps, Output};
use crate::weights::Weights;
use candle_core::{Device, Module, Result, Tensor};
use candle_nn::RmsNorm;

struct Linear {
    weight: Matrix,
    bias: Option<Tensor>,
}

impl Linear {
    /// Several projections of the same input as one matrix (their rows one
    /// after another): one pass of the kernel, and one split of the work
    /// over threads, instead of one per projection. Each output is the same
    /// dot product as before.
    fn stacked(parts: Vec<Linear>) -> Result<Linear> {
        let biases: Vec<&Tensor> = parts.iter().filter_map(|p| p.bias.as_ref()).collect();
        // A bias on some parts only has no stacked form: refused rather
        // than dropped.
        let bias = match biases.len() {
            0 => None,
            n if n == parts.len() => Some(Tensor::cat(&biases, 0)?),
            n => candle_core::bail!(
                "{n} of {} projections have a bias; they must all have one or none",
                parts.len()
            ),
        };
        Ok(Linear {
            weight: Matrix::stacked(parts.into_iter().map(|p| p.weight).collect())?,
            bias,
        })
    }

    fn forward(&self, x2d: &Tensor) -> Result<Tensor> {
        let y = self.weight.matmul(x2d)?;
        match &self.bias {
            Some(b) => y.broadcast_add(b),
            None => Ok(y),
        }
    }
}

struct CausalSelfAttention {
    /// `q_proj`, `k_proj` and `v_proj` stacked (see [`Linear::stacked`]).
    qkv_proj: Linear,
    o_proj: Linear,
}

struct Mlp {
    /// `gate_proj` and `up_proj` stacked.
    gate_up_proj: Linear,
    inner: usize,
    down_proj: Linear,
}

impl Mlp {
    fn forward(&self, x2d: &Tensor) -> Result<Tensor> {
        let gate_up = self.gate_up_proj.forward(x2d)?;
        let gate = candle_nn::ops::silu(&gate_up.narrow(1, 0, self.inner)?)?;
        let up = gate_up.narrow(1, self.inner, self.inner)?;
        self.down_proj.forward(&(gate * up)?)
    }
}

struct Block {
    rms_1: RmsNorm,
    attn: CausalSelfAttention,
    rms_2: RmsNorm,
    mlp: Mlp,
}

pub struct Llama {
    pub cfg: ModelConfig,
    shape: LlamaShape,
    embed_tokens: Matrix,
    /// `None`: the head is `embed_tokens` (`tie_word_embeddings`).
    lm_head: Option<Matrix>,
    blocks: Vec<Block>,
    norm: RmsNorm,
    /// The rotary frequencies, `1 / θ^(2i/d)`, as HF computes them in f32.
    inv_freq: Vec<f32>,
}

impl Llama {
    /// `shape`: the config's `Family::Llama`.
    pub fn load(
        cfg: ModelConfig,
        shape: LlamaShape,
        ck: &mut dyn Weights,
    ) -> std::result::Result<Llama, LoadError> {
        let d = cfg.n_embd;
        let hint = Checkpoint::hint(&cfg);
        let q_width = cfg.n_head * shape.head_dim;
        let kv_width = shape.n_kv_head * shape.head_dim;
        let rms = |ck: &mut dyn Weights, key: &str| -> std::result::Result<RmsNorm, LoadError> {
            Ok(RmsNorm::new(
                ck.take(&format!("{key}.weight"), &[d], &hint)?,
                shape.rms_norm_eps,
            ))
        };
        let lin = |ck: &mut dyn Weights,
                   key: &str,
                   i: usize,
                   o: usize,
                   bias: bool|
         -> std::result::Result<Linear, LoadError> {
            Ok(Linear {
                weight: ck.take_matrix(&format!("{key}.weight"), Layout::OutIn, [o, i], &hint)?,
                bias: if bias {
                    Some(ck.take(&format!("{key}.bias"), &[o], &hint)?)
                } else {
                    None
                },
            })
        };
        let stack = |parts: Vec<Linear>, what: &str| {
            Linear::stacked(parts).map_err(|e| LoadError::Weights {
                message: format!("{what}: its projections do not stack into one matrix"),
                source: Some(e),
            })
        };
        let embed_tokens = ck.take_matrix(
            "model.embed_tokens.weight",
            Layout::OutIn,
            [cfg.vocab_size, d],
            &hint,
        )?;
        let mut blocks = Vec::with_capacity(cfg.n_layer);
        for l in 0..cfg.n_layer {
            let p = format!("model.layers.{l}");
            let a = format!("{p}.self_attn");
            let m = format!("{p}.mlp");
            let inner = shape.intermediate_size;
            blocks.push(Block {
                rms_1: rms(ck, &format!("{p}.input_layernorm"))?,
                attn: CausalSelfAttention {
                    qkv_proj: stack(
                        vec![
                            lin(ck, &format!("{a}.q_proj"), d, q_width, shape.qkv_bias)?,
                            lin(ck, &format!("{a}.k_proj"), d, kv_width, shape.qkv_bias)?,
                            lin(ck, &format!("{a}.v_proj"), d, kv_width, shape.qkv_bias)?,
                        ],
                        &a,
                    )?,
                    o_proj: lin(ck, &format!("{a}.o_proj"), q_width, d, shape.o_bias)?,
                },
                rms_2: rms(ck, &format!("{p}.post_attention_layernorm"))?,
                mlp: Mlp {
                    gate_up_proj: stack(
                        vec![
                            lin(ck, &format!("{m}.gate_proj"), d, inner, shape.mlp_bias)?,
                            lin(ck, &format!("{m}.up_proj"), d, inner, shape.mlp_bias)?,
                        ],
                        &m,
                    )?,
                    inner,
                    down_proj: lin(ck, &format!("{m}.down_proj"), inner, d, shape.mlp_bias)?,
                },
            });
        }
        let norm = rms(ck, "model.norm")?;
        let lm_head = if shape.tie_word_embeddings {
            None
        } else {
            Some(ck.take_matrix("lm_head.weight", Layout::OutIn, [cfg.vocab_size, d], &hint)?)
        };
        let inv_freq = inv_freq(shape.rope_theta, shape.head_dim);
        Ok(Llama {
            cfg,
            shape,
            embed_tokens,
            lm_head,
            blocks,
            norm,
            inv_freq,
        })
    }

    /// Whether the head is `embed_tokens` itself.
    pub fn tied_head(&self) -> bool {
        self.lm_head.is_none()
    }

    pub fn parameter_count(&self) -> usize {
        let (d, s) = (self.cfg.n_embd, &self.shape);
        let q = self.cfg.n_head * s.head_dim;
        let kv = s.n_kv_head * s.head_dim;
        let inner = s.intermediate_size;
        let attn = d * q + 2 * d * kv + q * d;
        let attn_bias = usize::from(s.qkv_bias) * (q + 2 * kv) + usize::from(s.o_bias) * d;
        let mlp = 3 * d * inner + usize::from(s.mlp_bias) * (2 * inner + d);
        let per_block = 2 * d + attn + attn_bias + mlp;
        let head = usize::from(!s.tie_word_embeddings) * self.cfg.vocab_size * d;
        self.cfg.vocab_size * d + self.cfg.n_layer * per_block + d + head
    }

    /// Feeds `tokens` (`rows * t` ids, row-major) after `cache` (or from
    /// scratch). `exits` are (row, layer) pairs: the head's logits on that
    /// row's last position as it enters that layer (0 = the embeddings), as
    /// HF's `hidden_states[layer]` through `lm_head` (no final norm).
    pub fn forward(
        &self,
        tokens: &[u32],
        rows: usize,
        cache: Option<&KvCache>,
        exits: &[(usize, usize)],
    ) -> Result<Output> {
        let t = tokens.len() / rows;
        let past = cache.map(|c| c.len()).unwrap_or(0);
        let (d, h, hd) = (self.cfg.n_embd, self.cfg.n_head, self.shape.head_dim);
        let kvh = self.shape.n_kv_head;
        let mut x = self.embed_tokens.embed(tokens)?.reshape((rows, t, d))?;
        let (cos, sin) = self.rotary(past, t)?;
        // Grouped heads attend without copying keys and values (HF's
        // `repeat_kv`): query head `i` reads key/value head `i / n_rep`, so
        // the `n_rep` query heads of a group ride as extra query rows of
        // their shared head, and the causal mask is repeated for each (once
        // here, for every layer).
        let n_rep = h / kvh;
        let mask = match (t > 1).then(|| causal_mask(t, past + t, past)) {
            Some(m) if n_rep > 1 => Some(m?.repeat((n_rep, 1))?),
            m => m.transpose()?,
        };
        let scale = 1.0 / (hd as f64).sqrt();
        let mut layers = Vec::with_capacity(self.blocks.len());
        let mut taps: Vec<Option<Tensor>> = vec![None; exits.len()];
        for (l, b) in self.blocks.iter().enumerate() {
            take_taps(&mut taps, exits, l, &x)?;
            let a = b.rms_1.forward(&x)?.reshape((rows * t, d))?;
            let heads = |y: Tensor, n: usize| -> Result<Tensor> {
                y.reshape((rows, t, n, hd))?.transpose(1, 2)?.contiguous()
            };
            let qkv = b.attn.qkv_proj.forward(&a)?;
            let q = heads(qkv.narrow(1, 0, h * hd)?, h)?;
            let k = heads(qkv.narrow(1, h * hd, kvh * hd)?, kvh)?;
            let v = heads(qkv.narrow(1, (h + kvh) * hd, kvh * hd)?, kvh)?;
            let q = candle_nn::rotary_emb::rope(&q, &cos, &sin)?;
            let k = candle_nn::rotary_emb::rope(&k, &cos, &sin)?;
            // The cache keeps the key/value heads as they are (rotated keys):
            // grouped heads cost the cache no more than they cost the model.
            let ((k, v), kept) = after_cached(cache.map(|c| c.layer(l)), k, v)?;
            let y = attend(
                &q.reshape((rows, kvh, n_rep * t, hd))?,
                &k,
                &v,
                scale,
                mask.as_ref(),
            )?
            .reshape((rows, h, t, hd))?
            .transpose(1, 2)?
            .reshape((rows * t, h * hd))?;
            x = (x + b.attn.o_proj.forward(&y)?.reshape((rows, t, d))?)?;
            let m = b.rms_2.forward(&x)?.reshape((rows * t, d))?;
            x = (x + b.mlp.forward(&m)?.reshape((rows, t, d))?)?;
            layers.push(kept);
        }
        let hidden = self.norm.forward(&x)?;
        Output::finish(hidden, KvCache::after(cache, layers), taps, |rows| {
            self.head(rows)
        })
    }

    /// The final norm on `rows` (`[rows, d]`), as the last layer's output gets it.
    pub fn final_norm_rows(&self, rows: &Tensor) -> Result<Tensor> {
        self.norm.forward(rows)
    }

    /// The logits after each of `rows` (`[rows, d]` final hidden states).
    pub fn head_rows(&self, rows: &Tensor) -> Result<Tensor> {
        self.head(rows)
    }

    fn head(&self, last: &Tensor) -> Result<Tensor> {
        self.lm_head
            .as_ref()
            .unwrap_or(&self.embed_tokens)
            .matmul(last)
    }

    /// cos and sin of positions `past..past + t` (`[t, head_dim / 2]` each),
    /// computed as HF's rotary embedding does: the angle an f32 product of
    /// the position and the frequency, its cos and sin in f32. Computed per
    /// pass (a step needs one row), so no table grows with the context.
    fn rotary(&self, past: usize, t: usize) -> Result<(Tensor, Tensor)> {
        let half = self.inv_freq.len();
        let angles: Vec<f32> = (past..past + t)
            .flat_map(|p| self.inv_freq.iter().map(move |&f| p as f32 * f))
            .collect();
        let cos: Vec<f32> = angles.iter().map(|a| a.cos()).collect();
        let sin: Vec<f32> = angles.iter().map(|a| a.sin()).collect();
        Ok((
            Tensor::from_vec(cos, (t, half), &Device::Cpu)?,
            Tensor::from_vec(sin, (t, half), &Device::Cpu)?,
        ))
    }
}

/// `1 / θ^(2i/d)` for `i < d/2`: HF's `compute_default_rope_parameters`
/// (the exponent an f32 quotient, the power and the reciprocal in f32).
fn inv_freq(theta: f64, head_dim: usize) -> Vec<f32> {
    (0..head_dim)
        .step_by(2)
        .map(|i| {
            let e = i as f32 / head_dim as f32;
            let pow = (theta as f32 as f64).powf(e as f64) as f32;
            1.0 / pow
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linear(rows: usize, bias: bool) -> Linear {
        let weight = Matrix::from_rows(vec![1.0; rows * 2], rows, 2).unwrap();
        let bias = bias.then(|| Tensor::arange(0f32, rows as f32, &Device::Cpu).unwrap());
        Linear { weight, bias }
    }

    #[test]
    fn stacked_projections_give_each_part_its_own_outputs_and_biases() {
        let q = linear(2, true);
        let k = linear(1, true);
        let stacked = Linear::stacked(vec![q, k]).unwrap();
        let x = Tensor::new(&[[1f32, 2.0]], &Device::Cpu).unwrap();
        let y: Vec<Vec<f32>> = stacked.forward(&x).unwrap().to_vec2().unwrap();
        // 1 + 2 = 3 from the weights, then q's biases 0, 1 and k's 0.
        assert_eq!(y, [[3.0, 4.0, 3.0]]);
    }

    #[test]
    fn a_bias_on_only_some_projections_is_refused_not_dropped() {
        let err = Linear::stacked(vec![linear(2, true), linear(1, false)])
            .err()
            .expect("refused");
        assert!(
            err.to_string().contains("1 of 2 projections have a bias"),
            "{err}"
        );
        assert!(Linear::stacked(vec![linear(2, false), linear(1, false)])
            .unwrap()
            .bias
            .is_none());
    }
}
