//! Logits processors, one file each, applied as a list in HF's order
//! (`GenerationMixin._get_logits_processor`, transformers 5.x).

mod epsilon;
mod eta;
mod frequency_presence;
mod min_length;
mod min_p;
mod no_repeat_ngram;
mod repetition_penalty;
mod temperature;
mod top_k;
mod top_p;
mod typical;

pub use epsilon::EpsilonCutoff;
pub use eta::EtaCutoff;
pub use frequency_presence::FrequencyPresencePenalty;
pub use min_length::MinNewTokens;
pub use min_p::MinP;
pub use no_repeat_ngram::NoRepeatNGram;
pub use repetition_penalty::RepetitionPenalty;
pub use temperature::Temperature;
pub use top_k::TopK;
pub use top_p::TopP;
pub use typical::Typical;

use crate::config::ValidConfig;
use crate::knob::Stage;
use crate::mode::Mode;

/// What a processor may look at besides the scores: the whole sequence so far
/// (prompt + generated, as HF's `input_ids`) and where the prompt ends.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub ids: &'a [u32],
    pub prompt_len: usize,
}

impl Context<'_> {
    pub fn generated(&self) -> &[u32] {
        &self.ids[self.prompt_len.min(self.ids.len())..]
    }
}

pub trait LogitsProcessor: Send + Sync {
    /// The funnel stage it shows as, named for its HF knob (`top_p`, ...).
    fn stage(&self) -> Stage;
    fn process(&self, ctx: &Context, scores: &mut [f32]);
}

/// The processors of one configuration, in application order.
pub struct Pipeline {
    pub processors: Vec<Box<dyn LogitsProcessor>>,
}

impl Pipeline {
    /// HF's order: repetition penalty, (OpenAI penalties, ours), no-repeat-ngram,
    /// min length / min new tokens; then, only when sampling: temperature, top-k,
    /// top-p, min-p, typical, epsilon, eta.
    pub fn for_config(cfg: &ValidConfig, prompt_len: usize) -> Pipeline {
        let mut p: Vec<Box<dyn LogitsProcessor>> = Vec::new();
        if cfg.repetition_penalty != 1.0 {
            p.push(Box::new(RepetitionPenalty {
                penalty: cfg.repetition_penalty,
            }));
        }
        if cfg.frequency_penalty != 0.0 || cfg.presence_penalty != 0.0 {
            p.push(Box::new(FrequencyPresencePenalty {
                frequency: cfg.frequency_penalty,
                presence: cfg.presence_penalty,
            }));
        }
        if cfg.no_repeat_ngram_size > 0 {
            p.push(Box::new(NoRepeatNGram {
                size: cfg.no_repeat_ngram_size,
            }));
        }
        let min_new = cfg.min_new_tokens_for(prompt_len);
        if min_new > 0 && !cfg.eos_token_ids.is_empty() {
            p.push(Box::new(MinNewTokens {
                min_new_tokens: min_new,
                eos: cfg.eos_token_ids.clone(),
            }));
        }
        if cfg.mode == Mode::Sample {
            // Beam sampling is rejected at validation, so one token is always enough to keep.
            let keep = 1;
            if cfg.temperature != 1.0 {
                p.push(Box::new(Temperature {
                    temperature: cfg.source.temperature,
                }));
            }
            if cfg.top_k != 0 {
                p.push(Box::new(TopK {
                    top_k: cfg.top_k.max(keep),
                }));
            }
            if cfg.top_p < 1.0 {
                p.push(Box::new(TopP {
                    top_p: cfg.source.top_p,
                    min_tokens_to_keep: keep,
                }));
            }
            if let Some(min_p) = cfg.source.min_p {
                p.push(Box::new(MinP {
                    min_p,
                    min_tokens_to_keep: keep,
                }));
            }
            if cfg.typical_p < 1.0 {
                p.push(Box::new(Typical {
                    mass: cfg.source.typical_p,
                    min_tokens_to_keep: keep,
                }));
            }
            if cfg.epsilon_cutoff > 0.0 {
                p.push(Box::new(EpsilonCutoff {
                    epsilon: cfg.source.epsilon_cutoff,
                    min_tokens_to_keep: keep,
                }));
            }
            if cfg.eta_cutoff > 0.0 {
                p.push(Box::new(EtaCutoff {
                    epsilon: cfg.source.eta_cutoff,
                    min_tokens_to_keep: keep,
                }));
            }
        }
        Pipeline { processors: p }
    }

    pub fn apply(&self, ctx: &Context, scores: &mut [f32]) {
        for p in &self.processors {
            p.process(ctx, scores);
        }
    }
}

/// Removes entries by setting them to `-inf`, HF's `filter_value`.
pub(crate) fn remove(scores: &mut [f32], remove: impl Fn(usize, f32) -> bool) {
    for (i, s) in scores.iter_mut().enumerate() {
        if remove(i, *s) {
            *s = f32::NEG_INFINITY;
        }
    }
}

/// Indices sorted by score ascending, ties by index (a stable `torch.sort`).
pub(crate) fn argsort_ascending(values: &[f32]) -> Vec<usize> {
    argsort_ascending_subset(values, (0..values.len()).collect())
}

/// `idx` ordered by value, then index: a total order, so any subset keeps the
/// relative order it has in the full argsort.
pub(crate) fn argsort_ascending_subset(values: &[f32], mut idx: Vec<usize>) -> Vec<usize> {
    idx.sort_unstable_by(|&a, &b| values[a].total_cmp(&values[b]).then(a.cmp(&b)));
    idx
}

#[cfg(test)]
pub(crate) mod test_util {
    use super::*;
    pub fn run(
        p: &dyn LogitsProcessor,
        ids: &[u32],
        prompt_len: usize,
        scores: &[f32],
    ) -> Vec<f32> {
        let mut s = scores.to_vec();
        p.process(&Context { ids, prompt_len }, &mut s);
        s
    }
    pub const NEG: f32 = f32::NEG_INFINITY;
}
