//! Every llama.cpp knob the editor shows, in one table: its heading there
//! and llama-server's hard limits where it has them (what each does is in
//! the page's message catalogs, `llama-help-<knob>`). The rows are in the
//! editor's order. llama-server clamps most values rather than refusing
//! them; the limits here it refuses, and so does the validator
//! (`config.rs`), reading them here.

use super::knob::LlamaCppKnob;

/// The editor's headings for a llama.cpp lane's knobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlamaCppGroup {
    SamplerChain,
    Penalties,
    Mirostat,
    Length,
}

impl LlamaCppGroup {
    pub const ALL: [LlamaCppGroup; 4] = [
        LlamaCppGroup::SamplerChain,
        LlamaCppGroup::Penalties,
        LlamaCppGroup::Mirostat,
        LlamaCppGroup::Length,
    ];

    pub fn title(self) -> &'static str {
        match self {
            LlamaCppGroup::SamplerChain => "sampler chain",
            LlamaCppGroup::Penalties => "penalties",
            LlamaCppGroup::Mirostat => "mirostat, adaptive-p",
            LlamaCppGroup::Length => "length, stop, tokens",
        }
    }

    /// The group's knobs, in the editor's order.
    pub fn knobs(self) -> impl Iterator<Item = LlamaCppKnob> {
        LLAMA_CPP_KNOBS
            .iter()
            .filter(move |r| r.group == self)
            .map(|r| r.knob)
    }
}

/// One knob's row.
#[derive(Debug, Clone, Copy)]
pub struct LlamaCppKnobInfo {
    pub knob: LlamaCppKnob,
    pub group: LlamaCppGroup,
    /// The lowest and highest value llama-server takes (both included).
    pub limits: Option<(f64, f64)>,
}

use LlamaCppGroup::*;

const fn row(knob: LlamaCppKnob, group: LlamaCppGroup) -> LlamaCppKnobInfo {
    LlamaCppKnobInfo {
        knob,
        group,
        limits: None,
    }
}

/// A row with llama-server's hard limits.
const fn limited(knob: LlamaCppKnob, group: LlamaCppGroup, limits: (f64, f64)) -> LlamaCppKnobInfo {
    LlamaCppKnobInfo {
        limits: Some(limits),
        ..row(knob, group)
    }
}

/// llama-server's `INT32_MAX` bound on counts.
const I32_MAX: f64 = i32::MAX as f64;

/// Every knob but `semantics` (which chooses the table), in the editor's order.
pub const LLAMA_CPP_KNOBS: &[LlamaCppKnobInfo] = &[
    row(LlamaCppKnob::Temperature, SamplerChain),
    row(LlamaCppKnob::TopK, SamplerChain),
    row(LlamaCppKnob::TopP, SamplerChain),
    row(LlamaCppKnob::MinP, SamplerChain),
    row(LlamaCppKnob::TypicalP, SamplerChain),
    row(LlamaCppKnob::TopNSigma, SamplerChain),
    row(LlamaCppKnob::XtcProbability, SamplerChain),
    row(LlamaCppKnob::XtcThreshold, SamplerChain),
    row(LlamaCppKnob::DynatempRange, SamplerChain),
    row(LlamaCppKnob::DynatempExponent, SamplerChain),
    limited(LlamaCppKnob::MinKeep, SamplerChain, (0.0, I32_MAX)),
    row(LlamaCppKnob::Samplers, SamplerChain),
    row(LlamaCppKnob::Seed, SamplerChain),
    row(LlamaCppKnob::RepeatPenalty, Penalties),
    limited(LlamaCppKnob::RepeatLastN, Penalties, (-1.0, I32_MAX)),
    row(LlamaCppKnob::PresencePenalty, Penalties),
    row(LlamaCppKnob::FrequencyPenalty, Penalties),
    row(LlamaCppKnob::DryMultiplier, Penalties),
    row(LlamaCppKnob::DryBase, Penalties),
    limited(LlamaCppKnob::DryAllowedLength, Penalties, (0.0, I32_MAX)),
    limited(LlamaCppKnob::DryPenaltyLastN, Penalties, (-1.0, I32_MAX)),
    row(LlamaCppKnob::DrySequenceBreakers, Penalties),
    row(LlamaCppKnob::Mirostat, Mirostat),
    row(LlamaCppKnob::MirostatTau, Mirostat),
    row(LlamaCppKnob::MirostatEta, Mirostat),
    row(LlamaCppKnob::AdaptiveTarget, Mirostat),
    limited(LlamaCppKnob::AdaptiveDecay, Mirostat, (0.0, 0.99)),
    limited(LlamaCppKnob::NPredict, Length, (-1.0, I32_MAX)),
    row(LlamaCppKnob::Stop, Length),
    row(LlamaCppKnob::IgnoreEos, Length),
    row(LlamaCppKnob::LogitBias, Length),
];

impl LlamaCppKnob {
    /// The knob's row (`None` for `semantics`, which chooses the table).
    pub fn info(self) -> Option<&'static LlamaCppKnobInfo> {
        LLAMA_CPP_KNOBS.iter().find(|r| r.knob == self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_knob_but_semantics_has_one_row() {
        for &k in LlamaCppKnob::ALL {
            let rows = LLAMA_CPP_KNOBS.iter().filter(|r| r.knob == k).count();
            let expected = usize::from(k != LlamaCppKnob::Semantics);
            assert_eq!(rows, expected, "{k}");
        }
        let shown: usize = LlamaCppGroup::ALL.iter().map(|g| g.knobs().count()).sum();
        assert_eq!(shown, LLAMA_CPP_KNOBS.len(), "every row is under a heading");
    }

    #[test]
    fn the_validator_refuses_past_each_limit_in_llama_servers_words() {
        use crate::llama_cpp::config::LlamaCppConfig;
        for row in LLAMA_CPP_KNOBS {
            let Some((min, max)) = row.limits else {
                continue;
            };
            for bad in [min - 1.0, max + 1.0] {
                let mut c = LlamaCppConfig::default();
                let value = if max < 1.0 {
                    serde_json::json!(bad)
                } else {
                    serde_json::json!(bad as i64)
                };
                c = LlamaCppConfig::from_value(serde_json::json!({ row.knob.name(): value }))
                    .unwrap_or(c);
                let e = c.validate().unwrap_err();
                assert_eq!(e.field(), Some(row.knob.name()), "{bad}");
                assert!(e.to_string().contains("value must be between"), "{e}");
            }
        }
        let c = LlamaCppConfig::from_value(serde_json::json!({"n_predict": -2})).unwrap();
        assert_eq!(
            c.validate().unwrap_err().to_string(),
            "`n_predict`: value must be between -1 <= value <= 2147483647, but got -2"
        );
    }
}
