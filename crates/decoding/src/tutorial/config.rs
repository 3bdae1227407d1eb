//! A tutorial lane's fields: `generate()`'s and `sample_next_token()`'s
//! arguments in seed 004, with their defaults and their checks.

use crate::config_error::ConfigError;
use serde::{Deserialize, Serialize};

/// The fields, as seed 004's `generate(...)` names them (plus `seed`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TutorialConfig {
    pub max_new_tokens: i64,
    pub temperature: f64,
    /// `None`: no top-k (`top_k=None`); 0 or less also filters nothing.
    pub top_k: Option<i64>,
    /// `None`: no top-p; otherwise in (0, 1].
    pub top_p: Option<f64>,
    pub do_sample: bool,
    /// The window the loop crops to; `None`: the model's context.
    pub block_size: Option<i64>,
    pub seed: Option<u64>,
}

impl Default for TutorialConfig {
    fn default() -> Self {
        TutorialConfig {
            max_new_tokens: 20,
            temperature: 1.0,
            top_k: None,
            top_p: None,
            do_sample: true,
            block_size: None,
            seed: None,
        }
    }
}

/// Every field a tutorial lane takes, by name.
pub const FIELDS: [&str; 7] = [
    "max_new_tokens",
    "temperature",
    "top_k",
    "top_p",
    "do_sample",
    "block_size",
    "seed",
];

/// The checked fields a tutorial lane runs with.
#[derive(Debug, Clone, PartialEq)]
pub struct TutorialSettings {
    pub source: TutorialConfig,
    pub max_new_tokens: usize,
    pub temperature: f32,
    pub top_k: Option<i64>,
    pub top_p: Option<f32>,
    pub do_sample: bool,
    pub block_size: Option<usize>,
}

fn bad(field: &str, message: impl Into<String>) -> ConfigError {
    ConfigError::Tutorial {
        field: field.into(),
        message: message.into(),
    }
}

impl TutorialConfig {
    pub fn from_value(value: serde_json::Value) -> Result<TutorialConfig, ConfigError> {
        let serde_json::Value::Object(mut map) = value else {
            return Err(ConfigError::NotAnObject);
        };
        map.remove("semantics");
        if let Some(k) = map.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err(bad(
                k,
                format!(
                    "a tutorial lane takes seed 004's generate() arguments only: {}",
                    FIELDS.join(", ")
                ),
            ));
        }
        // `null` keeps the default, as Python's `None` does for top_k/top_p.
        map.retain(|_, v| !v.is_null());
        for (k, v) in &map {
            let one = serde_json::json!({ k: v });
            serde_json::from_value::<TutorialConfig>(one)
                .map_err(|e| bad(k, crate::config_error::without_position(&e)))?;
        }
        serde_json::from_value(serde_json::Value::Object(map))
            .map_err(|e| bad("config", crate::config_error::without_position(&e)))
    }

    /// The lane's JSON: `semantics` first, then the fields that differ from the defaults.
    pub fn to_value(&self) -> serde_json::Value {
        let mut out = serde_json::Map::new();
        out.insert("semantics".into(), "tutorial".into());
        let defaults = serde_json::to_value(TutorialConfig::default()).expect("serialises");
        let me = serde_json::to_value(self).expect("serialises");
        for (k, v) in me.as_object().expect("object") {
            if defaults.get(k) != Some(v) && !v.is_null() {
                out.insert(k.clone(), v.clone());
            }
        }
        out.into()
    }

    /// Seed 004's checks, with its messages.
    pub fn validate(&self) -> Result<TutorialSettings, ConfigError> {
        // sample_next_token checks the temperature even when greedy.
        // NaN fails both tests.
        if self.temperature.is_nan() || self.temperature <= 0.0 || self.temperature.is_infinite() {
            return Err(bad("temperature", "`temperature` must be positive."));
        }
        if let Some(p) = self.top_p {
            if !(p > 0.0 && p <= 1.0) {
                return Err(bad("top_p", "`top_p` must be in (0, 1]."));
            }
        }
        if !(0..=100_000).contains(&self.max_new_tokens) {
            return Err(bad(
                "max_new_tokens",
                "`max_new_tokens` must be between 0 and 100000",
            ));
        }
        let block_size = match self.block_size {
            None => None,
            Some(b) if (1..=1 << 20).contains(&b) => Some(b as usize),
            Some(b) => {
                return Err(bad(
                    "block_size",
                    format!("`block_size` is {b}; it must be at least 1"),
                ))
            }
        };
        Ok(TutorialSettings {
            source: self.clone(),
            max_new_tokens: self.max_new_tokens as usize,
            temperature: self.temperature as f32,
            top_k: self.top_k,
            top_p: self.top_p.map(|p| p as f32),
            do_sample: self.do_sample,
            block_size,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mode::Mode;
    use serde_json::json;

    #[test]
    fn seed_004s_checks_refuse_with_its_words() {
        let c = |v| {
            TutorialConfig::from_value(v)
                .unwrap()
                .validate()
                .unwrap_err()
        };
        assert_eq!(
            c(json!({"temperature": 0.0})).to_string(),
            "tutorial lane: `temperature`: `temperature` must be positive."
        );
        assert!(c(json!({"top_p": 1.5})).to_string().contains("(0, 1]"));
        assert!(c(json!({"top_p": 0.0})).to_string().contains("(0, 1]"));
        let e = TutorialConfig::from_value(json!({"repetition_penalty": 1.2})).unwrap_err();
        assert_eq!(e.field(), Some("repetition_penalty"));
        let e = TutorialConfig::from_value(json!({"top_k": "five"})).unwrap_err();
        assert_eq!(e.field(), Some("top_k"));
    }

    #[test]
    fn a_config_round_trips_with_only_what_differs() {
        let c = TutorialConfig::from_value(
            json!({"semantics": "tutorial", "temperature": 0.8, "top_k": 5, "top_p": null}),
        )
        .unwrap();
        assert_eq!(
            c.to_value(),
            json!({"semantics": "tutorial", "temperature": 0.8, "top_k": 5})
        );
        let v = c.validate_lane().unwrap();
        assert_eq!(v.mode, Mode::Tutorial);
        assert!(v.eos_token_ids.is_empty());
    }
}
