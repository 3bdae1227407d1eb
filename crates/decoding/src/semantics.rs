//! Which ecosystem's knobs a lane speaks: HF `transformers` (the default) or
//! llama.cpp (`"semantics": "llama.cpp"`). The same names mean different
//! things in each, so a lane's config is one or the other, never a mix.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

use crate::config::{GenerationConfig, ValidConfig};
use crate::config_error::ConfigError;
use crate::llama_cpp::config::LlamaCppConfig;
use crate::mode::Mode;
use crate::one_or_many::TokenIds;
use crate::tutorial::TutorialConfig;

/// A lane's ecosystem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Semantics {
    #[default]
    #[serde(rename = "transformers")]
    Transformers,
    #[serde(rename = "llama.cpp")]
    LlamaCpp,
    /// Seed 004's own generate loop.
    #[serde(rename = "tutorial")]
    Tutorial,
}

impl Semantics {
    pub fn name(self) -> &'static str {
        match self {
            Semantics::Transformers => "transformers",
            Semantics::LlamaCpp => "llama.cpp",
            Semantics::Tutorial => "tutorial",
        }
    }

    /// Reads a config object's `semantics` key (absent: transformers).
    pub fn of(value: &serde_json::Value) -> Result<Semantics, ConfigError> {
        match value.get("semantics") {
            None | Some(serde_json::Value::Null) => Ok(Semantics::Transformers),
            Some(serde_json::Value::String(s)) if s == "transformers" => {
                Ok(Semantics::Transformers)
            }
            Some(serde_json::Value::String(s)) if s == "llama.cpp" => Ok(Semantics::LlamaCpp),
            Some(serde_json::Value::String(s)) if s == "tutorial" => Ok(Semantics::Tutorial),
            Some(other) => Err(ConfigError::BadSemantics(other.to_string())),
        }
    }
}

/// One lane's knobs in its ecosystem's names. Serialises as the config
/// object a lane is given: HF's fields as they always were, or llama-server's
/// fields after `"semantics": "llama.cpp"`.
// Four lanes hold one each and clone them once per run: boxing the larger
// variant would buy nothing measurable and cost every match a deref.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum LaneConfig {
    Transformers(GenerationConfig),
    LlamaCpp(LlamaCppConfig),
    Tutorial(TutorialConfig),
}

impl Default for LaneConfig {
    fn default() -> Self {
        LaneConfig::Transformers(GenerationConfig::default())
    }
}

impl From<GenerationConfig> for LaneConfig {
    fn from(c: GenerationConfig) -> Self {
        LaneConfig::Transformers(c)
    }
}

impl From<LlamaCppConfig> for LaneConfig {
    fn from(c: LlamaCppConfig) -> Self {
        LaneConfig::LlamaCpp(c)
    }
}

impl LaneConfig {
    pub fn from_json(text: &str) -> Result<LaneConfig, ConfigError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(ConfigError::json)?;
        LaneConfig::from_value(value)
    }

    pub fn from_value(mut value: serde_json::Value) -> Result<LaneConfig, ConfigError> {
        match Semantics::of(&value)? {
            Semantics::LlamaCpp => LlamaCppConfig::from_value(value).map(LaneConfig::LlamaCpp),
            Semantics::Tutorial => TutorialConfig::from_value(value).map(LaneConfig::Tutorial),
            Semantics::Transformers => {
                if let Some(map) = value.as_object_mut() {
                    map.remove("semantics");
                }
                GenerationConfig::from_value(value).map(LaneConfig::Transformers)
            }
        }
    }

    pub fn semantics(&self) -> Semantics {
        match self {
            LaneConfig::Transformers(_) => Semantics::Transformers,
            LaneConfig::LlamaCpp(_) => Semantics::LlamaCpp,
            LaneConfig::Tutorial(_) => Semantics::Tutorial,
        }
    }

    /// The HF config, for what only HF lanes have (sandbox, lessons).
    pub fn transformers(&self) -> Option<&GenerationConfig> {
        match self {
            LaneConfig::Transformers(c) => Some(c),
            LaneConfig::LlamaCpp(_) | LaneConfig::Tutorial(_) => None,
        }
    }

    pub fn llama_cpp(&self) -> Option<&LlamaCppConfig> {
        match self {
            LaneConfig::LlamaCpp(c) => Some(c),
            LaneConfig::Transformers(_) | LaneConfig::Tutorial(_) => None,
        }
    }

    pub fn to_value(&self) -> serde_json::Value {
        match self {
            LaneConfig::Transformers(c) => serde_json::to_value(c).expect("config serialises"),
            LaneConfig::LlamaCpp(c) => c.to_value(),
            LaneConfig::Tutorial(c) => c.to_value(),
        }
    }

    pub fn validate(&self) -> Result<ValidConfig, ConfigError> {
        match self {
            LaneConfig::Transformers(c) => c.validate(),
            LaneConfig::LlamaCpp(c) => c.validate_lane(),
            LaneConfig::Tutorial(c) => c.validate_lane(),
        }
    }
}

impl LlamaCppConfig {
    /// The checked form a llama.cpp lane runs as: llama-server's settings
    /// inside the loop's own config (its budget, stop strings and seed).
    pub fn validate_lane(&self) -> Result<ValidConfig, ConfigError> {
        let settings = self.validate()?;
        let budget = settings.budget();
        let mut v = GenerationConfig {
            max_new_tokens: Some(budget as i64),
            ..GenerationConfig::default()
        }
        .validate()?;
        v.mode = Mode::LlamaCpp;
        v.stop_strings = settings.stop.clone();
        v.seed = settings.seed as u64;
        v.llama_cpp = Some(Arc::new(settings));
        Ok(v)
    }
}

impl TutorialConfig {
    /// The checked form a tutorial lane runs as: its settings inside the
    /// loop's own config (budget, seed; no eos: the loop never stops early).
    pub fn validate_lane(&self) -> Result<ValidConfig, ConfigError> {
        let settings = self.validate()?;
        let mut v = GenerationConfig {
            max_new_tokens: Some(settings.max_new_tokens as i64),
            ..GenerationConfig::default()
        }
        .validate()?;
        v.mode = Mode::Tutorial;
        v.seed = self.seed.unwrap_or(0);
        v.tutorial = Some(Arc::new(settings));
        Ok(v)
    }
}

impl ValidConfig {
    /// The config as it ran: the user's fields plus the eos the model
    /// supplied (a llama.cpp lane's as given: its eos comes from the model).
    pub fn effective(&self) -> LaneConfig {
        if let Some(t) = &self.tutorial {
            let mut c = t.source.clone();
            c.seed = Some(self.seed);
            return LaneConfig::Tutorial(c);
        }
        match &self.llama_cpp {
            Some(l) => LaneConfig::LlamaCpp(l.source.clone()),
            None => {
                let mut c = self.source.clone();
                c.eos_token_id = match self.eos_token_ids.as_slice() {
                    [] => None,
                    [one] => Some(TokenIds::One(*one as i64)),
                    many => Some(TokenIds::Many(many.iter().map(|&i| i as i64).collect())),
                };
                LaneConfig::Transformers(c)
            }
        }
    }
}

impl Serialize for LaneConfig {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LaneConfig::Transformers(c) => c.serialize(s),
            LaneConfig::LlamaCpp(c) => c.to_value().serialize(s),
            LaneConfig::Tutorial(c) => c.to_value().serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for LaneConfig {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        LaneConfig::from_value(value).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_config_without_semantics_is_hfs_and_reads_back_unchanged() {
        let c = LaneConfig::from_value(json!({"do_sample": true, "top_k": 5})).unwrap();
        assert_eq!(c.semantics(), Semantics::Transformers);
        let back = serde_json::to_value(&c).unwrap();
        assert!(
            back.get("semantics").is_none(),
            "old documents stay as they were"
        );
        assert_eq!(serde_json::from_value::<LaneConfig>(back).unwrap(), c);
    }

    #[test]
    fn a_llama_cpp_config_round_trips_with_its_semantics() {
        let c = LaneConfig::from_value(json!({"semantics": "llama.cpp", "repeat_penalty": 1.1}))
            .unwrap();
        assert_eq!(c.semantics(), Semantics::LlamaCpp);
        let back = serde_json::to_value(&c).unwrap();
        assert_eq!(
            back,
            json!({"semantics": "llama.cpp", "repeat_penalty": 1.1})
        );
        assert_eq!(serde_json::from_value::<LaneConfig>(back).unwrap(), c);
        let v = c.validate().unwrap();
        assert_eq!(v.mode, Mode::LlamaCpp);
        assert!(v.llama_cpp.is_some());
    }

    #[test]
    fn an_unknown_semantics_is_refused_by_name() {
        let e = LaneConfig::from_value(json!({"semantics": "vllm"})).unwrap_err();
        assert!(e.to_string().contains("vllm"), "{e}");
        assert_eq!(e.field(), Some("semantics"));
    }
}
