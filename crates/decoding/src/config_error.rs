//! What can be wrong with a generation config, each with a message a person
//! can act on and the knob at fault where there is one (the page shows the
//! message next to that knob).

use crate::config_rule::{LlamaCppRule, Rule};
use crate::constraints::ConstraintError;
use crate::knob::Knob;
use crate::llama_cpp::knob::LlamaCppKnob;
use crate::watermark::WatermarkError;
use std::sync::Arc;

#[derive(Debug, Clone, thiserror::Error)]
pub enum ConfigError {
    #[error("config is not valid JSON: {}", without_position(.0))]
    Json(#[source] Arc<serde_json::Error>),
    #[error("config must be a JSON object of HF generation_config fields")]
    NotAnObject,
    #[error("unknown generation config field `{field}`{}", hint(.suggestion))]
    UnknownField {
        field: String,
        suggestion: Option<Knob>,
    },
    /// A knob of HF `generate()` that changes decoding there but that this
    /// engine does not apply: refused, never accepted and dropped.
    #[error(
        "`{field}` is a knob of HF generate() that this lab does not apply ({why}); \
         remove it — a lane that kept it would not decode as HF does"
    )]
    Unsupported { field: String, why: &'static str },
    /// A value of the wrong type or form (`"top_k": "fifty"`).
    #[error("`{knob}`: {}", without_position(.source))]
    BadValue {
        knob: Knob,
        #[source]
        source: Arc<serde_json::Error>,
    },
    /// What someone typed into a knob's box is not a value at all.
    #[error("`{knob}`: `{text}` is not a number")]
    NotANumber { knob: Knob, text: String },
    /// A value that contradicts another knob or the model; HF's message
    /// where HF has one.
    #[error("{}", .rule.message(*.knob))]
    Invalid { knob: Knob, rule: Rule },
    /// A number outside the knob's range in the knob table (HF's words,
    /// from the table, where HF has them).
    #[error("{}", .knob.info().out_of_range(*.value))]
    OutOfRange { knob: Knob, value: f64 },
    /// `force_words_ids` that HF would not take as constraints.
    #[error(transparent)]
    Constraint(#[from] ConstraintError),
    /// A `watermarking_config` HF's processor would refuse.
    #[error(transparent)]
    Watermark(#[from] WatermarkError),
    /// `semantics` names no ecosystem this lab speaks.
    #[error("`semantics` must be \"transformers\", \"llama.cpp\" or \"tutorial\", got {0}")]
    BadSemantics(String),
    /// A llama.cpp lane's field that llama-server does not take.
    #[error("unknown llama.cpp field `{field}`{}", llama_hint(.suggestion))]
    LlamaCppUnknownField {
        field: String,
        suggestion: Option<LlamaCppKnob>,
    },
    /// A llama.cpp lane's knob with a value llama-server refuses (its
    /// message where it has one).
    #[error("{}", .rule.message(*.knob))]
    LlamaCpp {
        knob: LlamaCppKnob,
        rule: LlamaCppRule,
    },
    /// A tutorial lane's field that seed 004's loop does not take, or a
    /// value it refuses (its words where it has them).
    #[error("tutorial lane: `{field}`: {message}")]
    Tutorial { field: String, message: String },
    /// A llama.cpp lane's value of the wrong type or form.
    #[error("`{knob}`: {}", without_position(.source))]
    LlamaCppBadValue {
        knob: LlamaCppKnob,
        #[source]
        source: Arc<serde_json::Error>,
    },
}

impl ConfigError {
    pub(crate) fn invalid(knob: Knob, rule: Rule) -> Self {
        ConfigError::Invalid { knob, rule }
    }

    pub(crate) fn json(e: serde_json::Error) -> Self {
        ConfigError::Json(Arc::new(e))
    }

    pub(crate) fn bad_value(knob: Knob, e: serde_json::Error) -> Self {
        ConfigError::BadValue {
            knob,
            source: Arc::new(e),
        }
    }

    /// The knob at fault, when it is one.
    pub fn knob(&self) -> Option<Knob> {
        match self {
            ConfigError::BadValue { knob, .. }
            | ConfigError::NotANumber { knob, .. }
            | ConfigError::Invalid { knob, .. }
            | ConfigError::OutOfRange { knob, .. } => Some(*knob),
            ConfigError::Constraint(_) => Some(Knob::ForceWordsIds),
            ConfigError::Watermark(_) => Some(Knob::WatermarkingConfig),
            ConfigError::Json(_)
            | ConfigError::NotAnObject
            | ConfigError::UnknownField { .. }
            | ConfigError::Unsupported { .. }
            | ConfigError::LlamaCppUnknownField { .. }
            | ConfigError::LlamaCpp { .. }
            | ConfigError::LlamaCppBadValue { .. }
            | ConfigError::Tutorial { .. }
            | ConfigError::BadSemantics(_) => None,
        }
    }

    /// The field at fault as it was written: a knob, or an unknown key.
    pub fn field(&self) -> Option<&str> {
        match self {
            ConfigError::UnknownField { field, .. }
            | ConfigError::Unsupported { field, .. }
            | ConfigError::LlamaCppUnknownField { field, .. }
            | ConfigError::Tutorial { field, .. } => Some(field),
            ConfigError::LlamaCpp { knob, .. } | ConfigError::LlamaCppBadValue { knob, .. } => {
                Some(knob.name())
            }
            ConfigError::BadSemantics(_) => Some("semantics"),
            _ => self.knob().map(Knob::name),
        }
    }
}

/// Equal when they say the same thing: by their typed details, and serde's
/// errors (which have no equality) by their words.
impl PartialEq for ConfigError {
    fn eq(&self, other: &Self) -> bool {
        use ConfigError::*;
        let serde = |a: &serde_json::Error, b: &serde_json::Error| a.to_string() == b.to_string();
        match (self, other) {
            (Json(a), Json(b)) => serde(a, b),
            (NotAnObject, NotAnObject) => true,
            (
                UnknownField { field, suggestion },
                UnknownField {
                    field: f,
                    suggestion: s,
                },
            ) => field == f && suggestion == s,
            (Unsupported { field, why }, Unsupported { field: f, why: w }) => {
                field == f && why == w
            }
            (BadValue { knob, source }, BadValue { knob: k, source: s }) => {
                knob == k && serde(source, s)
            }
            (NotANumber { knob, text }, NotANumber { knob: k, text: t }) => knob == k && text == t,
            (Invalid { knob, rule }, Invalid { knob: k, rule: r }) => knob == k && rule == r,
            (OutOfRange { knob, value }, OutOfRange { knob: k, value: v }) => {
                knob == k && value.to_bits() == v.to_bits()
            }
            (Constraint(a), Constraint(b)) => a == b,
            (Watermark(a), Watermark(b)) => a == b,
            (BadSemantics(a), BadSemantics(b)) => a == b,
            (
                Tutorial { field, message },
                Tutorial {
                    field: f,
                    message: m,
                },
            ) => field == f && message == m,
            (
                LlamaCppUnknownField { field, suggestion },
                LlamaCppUnknownField {
                    field: f,
                    suggestion: s,
                },
            ) => field == f && suggestion == s,
            (LlamaCpp { knob, rule }, LlamaCpp { knob: k, rule: r }) => knob == k && rule == r,
            (LlamaCppBadValue { knob, source }, LlamaCppBadValue { knob: k, source: s }) => {
                knob == k && serde(source, s)
            }
            _ => false,
        }
    }
}

/// serde's message without " at line 1 column 17": the page shows the error
/// next to one knob, where a position in a JSON text means nothing.
pub fn without_position(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    }
}

fn llama_hint(suggestion: &Option<LlamaCppKnob>) -> String {
    suggestion
        .map(|k| format!("; did you mean `{k}`?"))
        .unwrap_or_default()
}

fn hint(suggestion: &Option<Knob>) -> String {
    suggestion
        .map(|k| format!("; did you mean `{k}`?"))
        .unwrap_or_default()
}

/// The knob nearest to a typo, if it is close enough to be a useful hint.
pub(crate) fn closest_knob(key: &str) -> Option<Knob> {
    closest_name(key, Knob::ALL.iter().map(|k| k.name())).and_then(|n| n.parse().ok())
}

/// The name among `names` nearest to a typo, if close enough to be a
/// useful hint (HF knobs, llama.cpp knobs and sampler names alike).
pub(crate) fn closest_name<'a>(key: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    names
        .map(|n| (strsim::levenshtein(key, n), n))
        .filter(|(d, n)| *d <= 2.max(n.len() / 4))
        .min_by_key(|&(d, n)| (d, n))
        .map(|(_, n)| n)
}

#[cfg(test)]
mod tests {
    use super::ConfigError;
    use crate::config_rule::Rule;
    use crate::{GenerationConfig, Knob};
    use std::error::Error;

    #[test]
    fn errors_carry_typed_details_and_compare_by_them() {
        let e = GenerationConfig::from_json(r#"{"top_p": 1.5}"#)
            .unwrap()
            .validate()
            .unwrap_err();
        assert_eq!(
            e,
            ConfigError::OutOfRange {
                knob: Knob::TopP,
                value: 1.5
            }
        );
        assert_eq!(
            e.to_string(),
            "`top_p` has to be a float > 0 and <= 1, but is 1.5"
        );
        let e = GenerationConfig::from_json(r#"{"num_beams": 99}"#)
            .unwrap()
            .validate()
            .unwrap_err();
        assert_eq!(
            e,
            ConfigError::Invalid {
                knob: Knob::NumBeams,
                rule: Rule::TooManyBeams { asked: 99, max: 16 }
            }
        );
        assert_ne!(
            e,
            ConfigError::Invalid {
                knob: Knob::NumBeams,
                rule: Rule::TooManyBeams { asked: 98, max: 16 }
            }
        );
    }

    #[test]
    fn a_value_of_the_wrong_type_keeps_serdes_error_and_names_the_knob() {
        let e = GenerationConfig::from_json(r#"{"top_k": "fifty"}"#).unwrap_err();
        assert_eq!(e.field(), Some("top_k"));
        // Shared, so that a config error stays `Clone` for the page.
        let source = e.source().expect("serde's error is kept");
        assert!(source
            .downcast_ref::<std::sync::Arc<serde_json::Error>>()
            .is_some());
        assert!(
            !e.to_string().contains(" at line "),
            "no position next to one knob: {e}"
        );
    }
}
