//! Where a llama.cpp lane's knob does nothing, or means something else than
//! the HF knob of the same (or a similar) name — the pitfalls of moving a
//! config from one ecosystem to the other.

use super::config::{LastN, LlamaCppConfig, LlamaCppKnob, RANDOM_SEED};
use super::sampler::SamplerName;
use crate::warnings::note::Note;
use crate::warnings::warning::Warning;

pub fn llama_cpp_warnings(c: &LlamaCppConfig) -> Vec<Warning<LlamaCppKnob>> {
    let Ok(s) = c.validate() else {
        return vec![];
    };
    let d = LlamaCppConfig::default();
    let mut out = Vec::new();
    let mut w = |field, note: Note| out.push(Warning { field, note });
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
            w(LlamaCppKnob::Mirostat, Note::MirostatAlone);
        }
    }
    if !mirostat && s.temperature > 0.0 && s.temperature != 1.0 && listed(SamplerName::Temperature)
    {
        let filters: Vec<String> = s
            .samplers
            .iter()
            .take_while(|n| **n != SamplerName::Temperature)
            .filter(|n| matches!(n, SamplerName::TopK | SamplerName::TopP | SamplerName::MinP))
            .map(|n| n.name().to_string())
            .collect();
        if !filters.is_empty() {
            w(
                LlamaCppKnob::Temperature,
                Note::TemperatureAfter { filters },
            );
        }
    }
    if !mirostat && !listed(SamplerName::Temperature) && s.temperature != d.temperature as f32 {
        w(LlamaCppKnob::Temperature, Note::TemperatureNotListed);
    }
    if s.repeat_penalty != 1.0 || s.frequency_penalty != 0.0 || s.presence_penalty != 0.0 {
        match s.repeat_last_n {
            LastN::Tokens(0) => w(LlamaCppKnob::RepeatLastN, Note::PenaltiesOff),
            LastN::Tokens(n) => w(
                LlamaCppKnob::RepeatPenalty,
                Note::PenaltyWindow {
                    last: Some(n as u32),
                },
            ),
            LastN::Context => w(
                LlamaCppKnob::RepeatPenalty,
                Note::PenaltyWindow { last: None },
            ),
        }
    }
    if c.top_p == d.top_p && c.min_p == d.min_p && c.top_k == d.top_k && !mirostat {
        w(LlamaCppKnob::MinP, Note::LlamaCppDefaults);
    }
    if s.xtc_probability > 0.0 && s.xtc_threshold > 0.5 {
        w(LlamaCppKnob::XtcThreshold, Note::XtcOff);
    }
    if c.dry_base < 1.0 {
        w(LlamaCppKnob::DryBase, Note::DryBaseReplaced);
    }
    if s.seed == RANDOM_SEED && c.seed == -1 && (s.temperature > 0.0 || mirostat) {
        w(LlamaCppKnob::Seed, Note::RandomSeed);
    }
    if s.n_predict.is_none() {
        w(LlamaCppKnob::NPredict, Note::UntilContextFull);
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
