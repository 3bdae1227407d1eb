//! Where a llama.cpp lane's knob does nothing, or means something else than
//! the HF knob of the same (or a similar) name — the pitfalls of moving a
//! config from one ecosystem to the other.

use super::config::{LastN, LlamaCppConfig, LlamaCppKnob, RANDOM_SEED};
use super::sampler::SamplerName;
use crate::warnings::warning::Warning;

pub fn llama_cpp_warnings(c: &LlamaCppConfig) -> Vec<Warning<LlamaCppKnob>> {
    let Ok(s) = c.validate() else {
        return vec![];
    };
    let d = LlamaCppConfig::default();
    let mut out = Vec::new();
    let mut w = |field, message: String| out.push(Warning { field, message });
    let listed = |name| s.samplers.contains(&name);
    let mirostat = s.mirostat != 0;
    if mirostat {
        let dropped = s.repeat_penalty != 1.0
            || s.frequency_penalty != 0.0
            || s.presence_penalty != 0.0
            || s.dry_multiplier != 0.0
            || c.top_k != d.top_k
            || c.top_p != d.top_p
            || c.min_p != d.min_p
            || c.samplers.is_some();
        if dropped {
            w(
                LlamaCppKnob::Mirostat,
                "with mirostat, llama.cpp builds no other samplers: top_k, top_p, min_p, the \
                 penalties, DRY and `samplers` do nothing — only logit_bias, temperature and mirostat act"
                    .into(),
            );
        }
    }
    if !mirostat && s.temperature > 0.0 && s.temperature != 1.0 && listed(SamplerName::Temperature)
    {
        let before: Vec<&str> = s
            .samplers
            .iter()
            .take_while(|n| **n != SamplerName::Temperature)
            .filter(|n| matches!(n, SamplerName::TopK | SamplerName::TopP | SamplerName::MinP))
            .map(|n| n.name())
            .collect();
        if !before.is_empty() {
            w(
                LlamaCppKnob::Temperature,
                format!(
                    "temperature acts after {} here, on the tokens they kept; HF divides the \
                     logits first, so the same numbers keep different tokens there",
                    before.join(", ")
                ),
            );
        }
    }
    if !mirostat && !listed(SamplerName::Temperature) && s.temperature != d.temperature as f32 {
        w(
            LlamaCppKnob::Temperature,
            "`temperature` is not in `samplers`: it does nothing".into(),
        );
    }
    if s.repeat_penalty != 1.0 || s.frequency_penalty != 0.0 || s.presence_penalty != 0.0 {
        let window = match s.repeat_last_n {
            LastN::Tokens(0) => {
                w(
                    LlamaCppKnob::RepeatLastN,
                    "repeat_last_n 0 turns the penalties off".into(),
                );
                None
            }
            LastN::Tokens(n) => Some(format!("the last {n} tokens")),
            LastN::Context => Some("the whole context".into()),
        };
        if let Some(window) = window {
            w(
                LlamaCppKnob::RepeatPenalty,
                format!(
                    "the penalties here count {window} (repeat_last_n), the prompt's included; \
                     HF's repetition_penalty sees the whole text"
                ),
            );
        }
    }
    if c.top_p == d.top_p && c.min_p == d.min_p && c.top_k == d.top_k && !mirostat {
        w(
            LlamaCppKnob::MinP,
            "llama-server samples with top_k 40, top_p 0.95 and min_p 0.05 unless told \
             otherwise; HF's defaults are top_k 50 alone"
                .into(),
        );
    }
    if s.xtc_probability > 0.0 && s.xtc_threshold > 0.5 {
        w(
            LlamaCppKnob::XtcThreshold,
            "an xtc_threshold above 0.5 turns XTC off".into(),
        );
    }
    if c.dry_base < 1.0 {
        w(
            LlamaCppKnob::DryBase,
            "llama-server replaces a dry_base below 1 with 1.75".into(),
        );
    }
    if s.seed == RANDOM_SEED && c.seed == -1 && (s.temperature > 0.0 || mirostat) {
        w(
            LlamaCppKnob::Seed,
            "seed -1 is a new random seed every run in llama.cpp; here it is 4294967295, so \
             runs repeat — give a seed to compare with a llama.cpp run"
                .into(),
        );
    }
    if s.n_predict.is_none() {
        w(
            LlamaCppKnob::NPredict,
            "n_predict -1 runs until the context is full — set a number of tokens".into(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn warned(v: serde_json::Value) -> Vec<LlamaCppKnob> {
        llama_cpp_warnings(&LlamaCppConfig::from_value(v).unwrap())
            .into_iter()
            .map(|w| w.field)
            .collect()
    }

    #[test]
    fn the_same_names_meaning_other_things_are_pointed_out() {
        let got =
            warned(json!({"temperature": 0.7, "repeat_penalty": 1.1, "seed": 1, "n_predict": 9}));
        assert!(got.contains(&LlamaCppKnob::Temperature), "{got:?}");
        assert!(got.contains(&LlamaCppKnob::RepeatPenalty));
        assert!(
            got.contains(&LlamaCppKnob::MinP),
            "defaults differ from HF's"
        );
        assert!(!got.contains(&LlamaCppKnob::Seed));
    }

    #[test]
    fn mirostat_silences_the_chain_and_says_so() {
        let got = warned(json!({"mirostat": 2, "top_k": 5, "seed": 1, "n_predict": 9}));
        assert!(got.contains(&LlamaCppKnob::Mirostat), "{got:?}");
        let quiet = warned(json!({"mirostat": 2, "seed": 1, "n_predict": 9}));
        assert!(!quiet.contains(&LlamaCppKnob::Mirostat));
    }
}
