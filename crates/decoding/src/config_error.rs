//! What can be wrong with a generation config, each with a message a person
//! can act on and the knob at fault where there is one (the page shows the
//! message next to that knob).

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
    /// A value out of range, or one that contradicts another knob; HF's
    /// message where HF has one.
    #[error("{message}")]
    Invalid { knob: Knob, message: String },
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
    #[error("`semantics` must be \"transformers\" or \"llama.cpp\", got {0}")]
    BadSemantics(String),
    /// A llama.cpp lane's field that llama-server does not take.
    #[error("unknown llama.cpp field `{field}`{}", llama_hint(.suggestion))]
    LlamaCppUnknownField {
        field: String,
        suggestion: Option<LlamaCppKnob>,
    },
    /// A llama.cpp lane's knob with a value llama-server refuses (its
    /// message where it has one).
    #[error("{message}")]
    LlamaCpp { knob: LlamaCppKnob, message: String },
}

impl ConfigError {
    pub(crate) fn invalid(knob: Knob, message: impl Into<String>) -> Self {
        ConfigError::Invalid {
            knob,
            message: message.into(),
        }
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
            | ConfigError::BadSemantics(_) => None,
        }
    }

    /// The field at fault as it was written: a knob, or an unknown key.
    pub fn field(&self) -> Option<&str> {
        match self {
            ConfigError::UnknownField { field, .. }
            | ConfigError::Unsupported { field, .. }
            | ConfigError::LlamaCppUnknownField { field, .. } => Some(field),
            ConfigError::LlamaCpp { knob, .. } => Some(knob.name()),
            ConfigError::BadSemantics(_) => Some("semantics"),
            _ => self.knob().map(Knob::name),
        }
    }
}

/// serde's errors have no equality; two config errors are equal when they
/// blame the same field with the same words.
impl PartialEq for ConfigError {
    fn eq(&self, other: &Self) -> bool {
        self.field() == other.field() && self.to_string() == other.to_string()
    }
}

/// serde's message without " at line 1 column 17": the page shows the error
/// next to one knob, where a position in a JSON text means nothing.
pub(crate) fn without_position(e: &serde_json::Error) -> String {
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
    use crate::GenerationConfig;
    use std::error::Error;

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
