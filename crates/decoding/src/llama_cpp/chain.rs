//! The sampler chain as llama-server builds it (`common_sampler_init`):
//! `logit_bias` first; then the `samplers` in their order (leaving out those
//! whose knobs switch them off, as llama.cpp's "empty" samplers do nothing),
//! ending in `dist` — or in `adaptive_p` when listed; with `mirostat` 1 or 2,
//! only temperature and mirostat after the biases.

use super::candidates::Candidates;
use super::config::LlamaCppSettings;
use super::sampler::{Sampler, SamplerName};
use super::samplers::{
    AdaptivePSampler, DistSampler, DrySampler, LogitBiasSampler, MinPSampler, MirostatSampler,
    MirostatV2Sampler, PenaltiesSampler, TemperatureSampler, TopKSampler, TopNSigmaSampler,
    TopPSampler, TypicalSampler, XtcSampler,
};
use super::std_random::Mt19937;

/// What the chain needs from the model and its tokenizer.
pub struct ChainModel<'a> {
    pub n_vocab: usize,
    /// The context size (`-1` in `repeat_last_n`/`dry_penalty_last_n`).
    pub n_ctx: usize,
    /// End-of-generation tokens, banned by `ignore_eos`.
    pub eog: &'a [u32],
}

pub struct Chain {
    pub samplers: Vec<Box<dyn Sampler>>,
}

impl Chain {
    pub fn new(s: &LlamaCppSettings, m: &ChainModel) -> Chain {
        let mut v: Vec<Box<dyn Sampler>> = Vec::new();
        let mut biases = s.bias_ids.clone();
        if s.ignore_eos {
            biases.extend(m.eog.iter().map(|&t| (t, f32::NEG_INFINITY)));
        }
        if !biases.is_empty() {
            v.push(Box::new(LogitBiasSampler { biases }));
        }
        let temperature = |range: f32| TemperatureSampler {
            temp: s.temperature,
            range,
            exponent: s.dynatemp_exponent,
        };
        match s.mirostat {
            1 | 2 => {
                if s.temperature != 1.0 {
                    v.push(Box::new(temperature(0.0)));
                }
                if s.mirostat == 1 {
                    v.push(Box::new(MirostatSampler::new(
                        m.n_vocab,
                        s.seed,
                        s.mirostat_tau,
                        s.mirostat_eta,
                    )));
                } else {
                    v.push(Box::new(MirostatV2Sampler::new(
                        s.seed,
                        s.mirostat_tau,
                        s.mirostat_eta,
                    )));
                }
            }
            _ => {
                let mut adaptive = false;
                for &name in &s.samplers {
                    if let Some(sampler) = Chain::sampler(name, s, m) {
                        v.push(sampler);
                    }
                    adaptive |= name == SamplerName::AdaptiveP;
                }
                if adaptive {
                    v.push(Box::new(AdaptivePSampler::new(
                        s.adaptive_target,
                        s.adaptive_decay,
                        s.seed,
                    )));
                } else {
                    v.push(Box::new(DistSampler {
                        rng: Mt19937::new(s.seed),
                    }));
                }
            }
        }
        Chain { samplers: v }
    }

    /// One listed sampler, or `None` when its knobs leave it doing nothing.
    fn sampler(
        name: SamplerName,
        s: &LlamaCppSettings,
        m: &ChainModel,
    ) -> Option<Box<dyn Sampler>> {
        Some(match name {
            SamplerName::Penalties => {
                let n = s.repeat_last_n.resolve(m.n_ctx);
                let (r, f, p) = (s.repeat_penalty, s.frequency_penalty, s.presence_penalty);
                if PenaltiesSampler::is_disabled(n, r, f, p) {
                    return None;
                }
                Box::new(PenaltiesSampler::new(n, r, f, p))
            }
            SamplerName::Dry => {
                let n = s.dry_penalty_last_n.resolve(m.n_ctx);
                if DrySampler::is_disabled(s.dry_multiplier, s.dry_base, n) {
                    return None;
                }
                Box::new(DrySampler::new(
                    s.dry_multiplier,
                    s.dry_base,
                    s.dry_allowed_length,
                    n,
                    &s.dry_breakers,
                ))
            }
            SamplerName::TopNSigma if s.top_n_sigma > 0.0 => {
                Box::new(TopNSigmaSampler { n: s.top_n_sigma })
            }
            SamplerName::TopK if s.top_k > 0 => Box::new(TopKSampler { k: s.top_k }),
            SamplerName::TypicalP if s.typical_p < 1.0 => Box::new(TypicalSampler {
                p: s.typical_p,
                min_keep: s.min_keep,
            }),
            SamplerName::TopP if s.top_p < 1.0 => Box::new(TopPSampler {
                p: s.top_p,
                min_keep: s.min_keep,
            }),
            SamplerName::MinP if s.min_p > 0.0 => Box::new(MinPSampler {
                p: s.min_p,
                min_keep: s.min_keep,
            }),
            SamplerName::Xtc if s.xtc_probability > 0.0 && s.xtc_threshold <= 0.5 => {
                Box::new(XtcSampler {
                    probability: s.xtc_probability,
                    threshold: s.xtc_threshold,
                    min_keep: s.min_keep,
                    rng: Mt19937::new(s.seed),
                })
            }
            SamplerName::Temperature if s.temperature != 1.0 || s.dynatemp_range > 0.0 => {
                Box::new(TemperatureSampler {
                    temp: s.temperature,
                    range: s.dynatemp_range,
                    exponent: s.dynatemp_exponent,
                })
            }
            _ => return None,
        })
    }

    /// Tells every sampler the sequence took `token` (the prompt's tokens
    /// first, as llama-server does, then each generated one).
    pub fn accept(&mut self, token: u32) {
        for s in &mut self.samplers {
            s.accept(token);
        }
    }

    /// Runs the chain on one row of logits; `each` sees the candidates after
    /// every sampler. Returns the chosen token (llama.cpp asserts one is).
    pub fn apply(
        &mut self,
        logits: &[f32],
        mut each: impl FnMut(SamplerName, &Candidates),
    ) -> (Candidates, Option<u32>) {
        let mut cur = Candidates::from_logits(logits);
        for s in &mut self.samplers {
            s.apply(&mut cur);
            each(s.name(), &cur);
        }
        let chosen = cur.selected.and_then(|i| cur.data.get(i)).map(|d| d.id);
        (cur, chosen)
    }
}
