//! "This knob does nothing here": the pitfalls the lessons warn about, found
//! from the config alone (HF silently ignores these).

use crate::config::{EarlyStopping, GenerationConfig, Mode};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Warning {
    pub field: String,
    pub message: String,
}

fn w(field: &str, message: impl Into<String>) -> Warning {
    Warning { field: field.into(), message: message.into() }
}

pub fn config_warnings(c: &GenerationConfig) -> Vec<Warning> {
    let mode = c.mode();
    let mut out = Vec::new();
    let sampling = mode == Mode::Sample;
    if !sampling {
        let why = match mode {
            Mode::Beam => "beam search does not sample",
            Mode::Contrastive => "contrastive search does not sample",
            _ => "greedy decoding does not sample (do_sample=false)",
        };
        let ignored: [(&str, bool); 6] = [
            ("temperature", c.temperature != 1.0),
            ("top_p", c.top_p < 1.0),
            ("min_p", c.min_p.is_some()),
            ("typical_p", c.typical_p < 1.0),
            ("epsilon_cutoff", c.epsilon_cutoff > 0.0),
            ("eta_cutoff", c.eta_cutoff > 0.0),
        ];
        for (field, set) in ignored {
            if set {
                out.push(w(field, format!("`{field}` does nothing: {why}")));
            }
        }
        if mode != Mode::Contrastive && c.top_k != Some(50) && c.top_k.is_some_and(|k| k > 0) {
            out.push(w("top_k", format!("`top_k` does nothing: {why}")));
        }
        if c.seed.is_some() {
            out.push(w("seed", "`seed` does nothing: nothing in this lane is random"));
        }
    } else if c.top_k == Some(50) {
        out.push(w("top_k", "`top_k=50` is active: it is HF's default even when you do not set it; set `top_k` to 0 to sample from the whole distribution"));
    }
    if mode != Mode::Beam {
        if c.early_stopping != EarlyStopping::Heuristic {
            out.push(w("early_stopping", "`early_stopping` only matters for beam search (`num_beams` > 1)"));
        }
        if c.length_penalty != 1.0 {
            out.push(w("length_penalty", "`length_penalty` only matters for beam search (`num_beams` > 1)"));
        }
    }
    if c.penalty_alpha.is_some_and(|a| a > 0.0) && mode != Mode::Contrastive {
        out.push(w("penalty_alpha", "`penalty_alpha` does nothing: contrastive search needs `top_k` > 1, `do_sample=false` and `num_beams=1`"));
    }
    if c.repetition_penalty < 1.0 {
        out.push(w("repetition_penalty", "`repetition_penalty` below 1 rewards repetition instead of penalising it"));
    }
    if c.no_repeat_ngram_size == 1 {
        out.push(w("no_repeat_ngram_size", "`no_repeat_ngram_size=1` forbids every token that already appeared, prompt included"));
    }
    if matches!(&c.eos_token_id, Some(crate::config::TokenIds::Many(v)) if v.is_empty()) && c.min_new_tokens.is_some() {
        out.push(w("min_new_tokens", "`min_new_tokens` does nothing without an eos token"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(json: &str) -> Vec<String> {
        config_warnings(&GenerationConfig::from_json(json).unwrap()).into_iter().map(|w| w.field).collect()
    }

    #[test]
    fn temperature_under_greedy_is_flagged_the_lessons_pitfall() {
        assert_eq!(fields(r#"{"temperature": 0.7, "top_p": 0.9}"#), ["temperature", "top_p"]);
    }

    #[test]
    fn the_silent_default_top_k_is_pointed_out_when_sampling() {
        assert_eq!(fields(r#"{"do_sample": true}"#), ["top_k"]);
        assert!(fields(r#"{"do_sample": true, "top_k": 0}"#).is_empty());
    }

    #[test]
    fn beam_only_knobs_outside_beam_search_are_flagged() {
        assert_eq!(fields(r#"{"early_stopping": true, "length_penalty": 2.0}"#), ["early_stopping", "length_penalty"]);
        assert!(fields(r#"{"num_beams": 4, "early_stopping": true}"#).is_empty());
    }

    #[test]
    fn a_plain_greedy_or_contrastive_config_has_no_warning() {
        assert!(fields("{}").is_empty());
        assert!(fields(r#"{"penalty_alpha": 0.6, "top_k": 4}"#).is_empty());
        assert_eq!(fields(r#"{"penalty_alpha": 0.6, "do_sample": true, "top_k": 4}"#), ["penalty_alpha"]);
    }
}
