//! Every llama.cpp knob the editor shows, in one table: its heading there,
//! llama-server's hard limits where it has them, and one line on what it
//! does in llama.cpp. The rows are in the editor's order. llama-server
//! clamps most values rather than refusing them; the limits here it
//! refuses, and so does the validator (`config.rs`), reading them here.

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
    /// One line on what the knob does there (the editor's hover text).
    pub help: &'static str,
}

use LlamaCppGroup::*;

const fn row(knob: LlamaCppKnob, group: LlamaCppGroup, help: &'static str) -> LlamaCppKnobInfo {
    LlamaCppKnobInfo {
        knob,
        group,
        limits: None,
        help,
    }
}

/// A row with llama-server's hard limits.
const fn limited(
    knob: LlamaCppKnob,
    group: LlamaCppGroup,
    limits: (f64, f64),
    help: &'static str,
) -> LlamaCppKnobInfo {
    LlamaCppKnobInfo {
        limits: Some(limits),
        ..row(knob, group, help)
    }
}

/// llama-server's `INT32_MAX` bound on counts.
const I32_MAX: f64 = i32::MAX as f64;

/// Every knob but `semantics` (which chooses the table), in the editor's order.
pub const LLAMA_CPP_KNOBS: &[LlamaCppKnobInfo] = &[
    row(LlamaCppKnob::Temperature, SamplerChain,
        "divides the logits — last in llama.cpp's default chain, after the filters; 0 or less keeps only the best token (greedy)"),
    row(LlamaCppKnob::TopK, SamplerChain,
        "keeps the k most likely tokens (0 = off); 40 by default here"),
    row(LlamaCppKnob::TopP, SamplerChain,
        "keeps the smallest set of likely tokens whose probability reaches p, at least min_keep; 0.95 by default here"),
    row(LlamaCppKnob::MinP, SamplerChain,
        "keeps tokens at least p times as likely as the best one; 0.05 by default here"),
    row(LlamaCppKnob::TypicalP, SamplerChain,
        "locally typical sampling: tokens whose surprise is near the entropy (1 = off)"),
    row(LlamaCppKnob::TopNSigma, SamplerChain,
        "keeps tokens whose logit is within n standard deviations of the best (negative = off)"),
    row(LlamaCppKnob::XtcProbability, SamplerChain,
        "exclude top choices: how often it removes every likely token but the least likely of them (0 = off)"),
    row(LlamaCppKnob::XtcThreshold, SamplerChain,
        "XTC: what counts as a likely token (above 0.5 turns XTC off)"),
    row(LlamaCppKnob::DynatempRange, SamplerChain,
        "dynamic temperature: the temperature moves within ± this range with the candidates' entropy (0 = off)"),
    row(LlamaCppKnob::DynatempExponent, SamplerChain,
        "how the entropy maps to the dynamic temperature"),
    limited(LlamaCppKnob::MinKeep, SamplerChain, (0.0, I32_MAX),
        "top_p, min_p, typical and XTC keep at least this many tokens"),
    row(LlamaCppKnob::Samplers, SamplerChain,
        "the chain's order, by llama.cpp's names (penalties, dry, top_n_sigma, top_k, typ_p, top_p, min_p, xtc, temperature, adaptive_p)"),
    row(LlamaCppKnob::Seed, SamplerChain,
        "the seed of the chain's draws (dist, XTC, mirostat; -1 = random)"),
    row(LlamaCppKnob::RepeatPenalty, Penalties,
        "divides (or multiplies, if negative) the logit of every token among the last repeat_last_n (1 = off)"),
    limited(LlamaCppKnob::RepeatLastN, Penalties, (-1.0, I32_MAX),
        "how many recent tokens the penalties see, the prompt's included (64; 0 = off; -1 = the whole context)"),
    row(LlamaCppKnob::PresencePenalty, Penalties,
        "subtracted once from every token among the last repeat_last_n"),
    row(LlamaCppKnob::FrequencyPenalty, Penalties,
        "subtracted per occurrence among the last repeat_last_n"),
    row(LlamaCppKnob::DryMultiplier, Penalties,
        "DRY: penalises the token that would extend a repeated sequence, multiplier · base^(length − allowed) (0 = off)"),
    row(LlamaCppKnob::DryBase, Penalties,
        "DRY: how fast the penalty grows with the repeat's length"),
    limited(LlamaCppKnob::DryAllowedLength, Penalties, (0.0, I32_MAX),
        "DRY: repeats up to this long go unpunished"),
    limited(LlamaCppKnob::DryPenaltyLastN, Penalties, (-1.0, I32_MAX),
        "DRY: how far back it looks (64; 0 = off; -1 = the whole context)"),
    row(LlamaCppKnob::DrySequenceBreakers, Penalties,
        "DRY: strings that end a repeat's look-back (newline, colon, quote, asterisk)"),
    row(LlamaCppKnob::Mirostat, Mirostat,
        "1 or 2: mirostat replaces the chain after temperature and steers each pick's surprise to mirostat_tau (0 = off)"),
    row(LlamaCppKnob::MirostatTau, Mirostat,
        "mirostat: the target surprise, in bits"),
    row(LlamaCppKnob::MirostatEta, Mirostat,
        "mirostat: how fast it corrects towards the target"),
    row(LlamaCppKnob::AdaptiveTarget, Mirostat,
        "adaptive-p (listed in samplers): picks tokens near this probability (negative = off)"),
    limited(LlamaCppKnob::AdaptiveDecay, Mirostat, (0.0, 0.99),
        "adaptive-p: how long its memory of recent picks is"),
    limited(LlamaCppKnob::NPredict, Length, (-1.0, I32_MAX),
        "how many tokens to generate (-1 = until the context is full)"),
    row(LlamaCppKnob::Stop, Length,
        "stop when the text contains one of these strings"),
    row(LlamaCppKnob::IgnoreEos, Length,
        "bans the end-of-text token, so the lane runs to n_predict"),
    row(LlamaCppKnob::LogitBias, Length,
        "[[token, bias], ...] or {\"token\": bias}; a token is an id or a text, false bans it"),
];

impl LlamaCppKnob {
    /// The knob's row (`None` for `semantics`, which chooses the table).
    pub fn info(self) -> Option<&'static LlamaCppKnobInfo> {
        LLAMA_CPP_KNOBS.iter().find(|r| r.knob == self)
    }

    /// One line on what the knob does in llama.cpp.
    pub fn explain(self) -> &'static str {
        match self.info() {
            Some(r) => r.help,
            None => "whose knobs the lane takes: \"llama.cpp\" here",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_knob_but_semantics_has_one_row_with_help() {
        for &k in LlamaCppKnob::ALL {
            let rows = LLAMA_CPP_KNOBS.iter().filter(|r| r.knob == k).count();
            let expected = usize::from(k != LlamaCppKnob::Semantics);
            assert_eq!(rows, expected, "{k}");
            assert!(!k.explain().is_empty());
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
