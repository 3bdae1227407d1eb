//! Logits processors, one file each, applied as a list in HF's order
//! (`GenerationMixin._get_logits_processor`, transformers 5.x).

mod diversity;
mod dola;
mod epsilon;
mod eta;
mod exponential_decay;
mod forced_tokens;
mod frequency_presence;
mod guidance;
mod min_length;
mod min_p;
mod no_repeat_ngram;
mod processor;
mod remove_invalid;
mod renormalize;
mod repetition_penalty;
mod sequence_bias;
mod suppress_tokens;
mod temperature;
mod top_h;
mod top_k;
mod top_p;
mod typical;
mod watermark;

pub use diversity::HammingDiversity;
pub use dola::DolaContrast;
pub use epsilon::EpsilonCutoff;
pub use eta::EtaCutoff;
pub use exponential_decay::ExponentialDecay;
pub use forced_tokens::{ForcedBos, ForcedEos};
pub use frequency_presence::FrequencyPresencePenalty;
pub use guidance::Guidance;
pub use min_length::MinNewTokens;
pub use min_p::MinP;
pub use no_repeat_ngram::NoRepeatNGram;
pub use processor::{Context, LogitsProcessor};
pub use remove_invalid::RemoveInvalid;
pub use renormalize::Renormalize;
pub use repetition_penalty::RepetitionPenalty;
pub use sequence_bias::SequenceBias;
pub use suppress_tokens::{SuppressTokens, SuppressTokensAtBegin};
pub use temperature::Temperature;
pub use top_h::TopH;
pub use top_k::TopK;
pub use top_p::TopP;
pub use typical::Typical;
pub use watermark::WatermarkProcessor;

use crate::config::ValidConfig;
use crate::mode::Mode;

/// The processors of one configuration, in application order.
pub struct Pipeline {
    pub processors: Vec<Box<dyn LogitsProcessor>>,
}

impl Pipeline {
    /// HF's order (`_get_logits_processor`, 5.24), after DoLa's contrast (which
    /// 4.55 computes before the processors): guidance, sequence bias,
    /// (diverse beam search's Hamming diversity, where 4.55 put it), repetition
    /// penalty, (OpenAI penalties, ours), no-repeat-ngram, bad words, min length /
    /// min new tokens, forced bos, forced eos, invalid values, exponential decay,
    /// suppressed tokens, suppressed at begin; then, only when sampling:
    /// temperature, top-h, top-k, top-p, min-p, typical, epsilon, eta; then the
    /// watermark; last, renormalisation.
    pub fn for_config(cfg: &ValidConfig, prompt_len: usize) -> Pipeline {
        let mut p: Vec<Box<dyn LogitsProcessor>> = Vec::new();
        let rules = &cfg.rules;
        if cfg.dola_layers.is_some() {
            // HF 4.55 contrasts the layers before any processor runs.
            p.push(Box::new(DolaContrast));
        }
        if let Some(scale) = cfg.guidance_scale() {
            p.push(Box::new(Guidance { scale }));
        }
        if !rules.sequence_bias.is_empty() {
            p.push(Box::new(SequenceBias::new(
                crate::knob::Knob::SequenceBias,
                &rules.sequence_bias,
            )));
        }
        if cfg.mode == Mode::GroupBeam {
            // HF 4.55 puts it after the sequence bias, before the penalties.
            p.push(Box::new(HammingDiversity {
                penalty: cfg.diversity_penalty,
            }));
        }
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
        if !rules.bad_words_ids.is_empty() {
            p.push(Box::new(SequenceBias::bad_words(
                &rules.bad_words_ids,
                &cfg.eos_token_ids,
            )));
        }
        let min_new = cfg.min_new_tokens_for(prompt_len);
        if min_new > 0 && !cfg.eos_token_ids.is_empty() {
            p.push(Box::new(MinNewTokens {
                min_new_tokens: min_new,
                eos: cfg.eos_token_ids.clone(),
            }));
        }
        if let Some(id) = rules.forced_bos_token_id {
            p.push(Box::new(ForcedBos { id }));
        }
        if !rules.forced_eos_token_ids.is_empty() {
            p.push(Box::new(ForcedEos {
                ids: rules.forced_eos_token_ids.clone(),
                max_length: prompt_len + cfg.new_token_budget(prompt_len),
            }));
        }
        if cfg.source.remove_invalid_values {
            p.push(Box::new(RemoveInvalid));
        }
        if let Some((start, factor)) = rules.exponential_decay {
            p.push(Box::new(ExponentialDecay {
                regulation_start: prompt_len + start,
                factor,
                eos: cfg.eos_token_ids.clone(),
            }));
        }
        if !rules.suppress_tokens.is_empty() {
            p.push(Box::new(SuppressTokens {
                ids: rules.suppress_tokens.clone(),
            }));
        }
        if !rules.begin_suppress_tokens.is_empty() {
            // HF starts one later when a one-token prompt is followed by a forced bos.
            let begin_index = if prompt_len > 1 || rules.forced_bos_token_id.is_none() {
                prompt_len
            } else {
                prompt_len + 1
            };
            p.push(Box::new(SuppressTokensAtBegin {
                ids: rules.begin_suppress_tokens.clone(),
                begin_index,
            }));
        }
        if cfg.mode.is_sampling() {
            // HF keeps one non-eos token per beam to explore past an eos:
            // `len(eos) + 1` when beams sample, one token otherwise.
            let keep = if cfg.mode.is_beam() {
                cfg.eos_token_ids.len() + 1
            } else {
                1
            };
            if cfg.temperature != 1.0 {
                p.push(Box::new(Temperature {
                    temperature: cfg.source.temperature,
                }));
            }
            if let Some(top_h) = cfg.source.top_h {
                p.push(Box::new(TopH { top_h }));
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
        // HF: "Watermarking should be after all logits processing is finished".
        if let Some(w) = &cfg.watermark {
            p.push(Box::new(WatermarkProcessor {
                watermark: w.clone(),
            }));
        }
        if cfg.source.renormalize_logits {
            p.push(Box::new(Renormalize));
        }
        Pipeline { processors: p }
    }

    pub fn apply(&self, ctx: &Context, scores: &mut [f32]) {
        for p in &self.processors {
            p.process(ctx, scores);
        }
    }
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
        p.process(&Context::new(ids, prompt_len), &mut s);
        s
    }
    pub const NEG: f32 = f32::NEG_INFINITY;
}
