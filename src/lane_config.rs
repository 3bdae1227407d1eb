//! A lane's configuration as the user edits it: only the fields they set (so a
//! lane's JSON is its HF `generation_config` diff), typed text per knob, and
//! validation through the decoding crate — never re-implemented here.

use ntl_decoding::{ConfigError, GenerationConfig, Mode, ValidConfig};
use serde_json::{Map, Value};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct LaneConfig {
    fields: Map<String, Value>,
}

/// Knobs shown for every mode, then per mode. Names are HF's.
pub const COMMON_KNOBS: &[&str] = &[
    "max_new_tokens",
    "min_new_tokens",
    "repetition_penalty",
    "no_repeat_ngram_size",
    "frequency_penalty",
    "presence_penalty",
    "eos_token_id",
    "stop_strings",
];
pub const SAMPLE_KNOBS: &[&str] = &[
    "temperature",
    "top_k",
    "top_p",
    "min_p",
    "typical_p",
    "epsilon_cutoff",
    "eta_cutoff",
    "seed",
];
pub const BEAM_KNOBS: &[&str] = &[
    "num_beams",
    "length_penalty",
    "early_stopping",
    "num_return_sequences",
];
pub const CONTRASTIVE_KNOBS: &[&str] = &["penalty_alpha", "top_k"];

pub fn knobs_for(mode: Mode) -> Vec<&'static str> {
    let specific = match mode {
        Mode::Greedy => &[][..],
        Mode::Sample => SAMPLE_KNOBS,
        Mode::Beam => BEAM_KNOBS,
        Mode::Contrastive => CONTRASTIVE_KNOBS,
    };
    specific.iter().chain(COMMON_KNOBS).copied().collect()
}

impl LaneConfig {
    pub fn from_json(text: &str) -> Result<LaneConfig, ConfigError> {
        let cfg = GenerationConfig::from_json(text)?;
        let Value::Object(user) = serde_json::from_str::<Value>(text).map_err(|e| ConfigError {
            field: None,
            message: e.to_string(),
        })?
        else {
            unreachable!("from_json accepted an object")
        };
        // Keep only known fields (the parser already dropped ignorable ones).
        let known = serde_json::to_value(&cfg).expect("serialises");
        let fields = user
            .into_iter()
            .filter(|(k, _)| known.get(k).is_some())
            .collect();
        Ok(LaneConfig { fields })
    }

    pub fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }

    /// A lane from a share link's field map (already checked by the link decoder).
    pub fn from_fields(fields: Map<String, Value>) -> Result<LaneConfig, ConfigError> {
        LaneConfig::from_json(&Value::Object(fields).to_string())
    }

    /// The lane's config as `generation_config.json` text (only what was set).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&Value::Object(self.fields.clone())).expect("serialises")
    }

    pub fn config(&self) -> Result<GenerationConfig, ConfigError> {
        GenerationConfig::from_value(Value::Object(self.fields.clone()))
    }

    pub fn validate(&self) -> Result<ValidConfig, ConfigError> {
        self.config()?.validate()
    }

    pub fn mode(&self) -> Mode {
        self.config().map(|c| c.mode()).unwrap_or(Mode::Greedy)
    }

    /// What a knob's input shows: the value set, else empty (the default is the placeholder).
    pub fn text(&self, field: &str) -> String {
        match self.fields.get(field) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) if field == "stop_strings" => s.clone(),
            Some(v) => v.to_string(),
        }
    }

    /// HF's default for a knob, shown as the input's placeholder.
    pub fn default_text(field: &str) -> String {
        let d = serde_json::to_value(GenerationConfig::default()).expect("serialises");
        match d.get(field) {
            Some(Value::Null) | None => match field {
                "max_new_tokens" => "20".into(),
                "eos_token_id" => "model's".into(),
                _ => "off".into(),
            },
            Some(v) => v.to_string(),
        }
    }

    /// Sets a knob from what the user typed; empty text means "back to the default".
    pub fn set(&mut self, field: &str, text: &str) -> Result<(), ConfigError> {
        let t = text.trim();
        if t.is_empty() {
            self.fields.remove(field);
            return Ok(());
        }
        let value = if field == "stop_strings" && !t.starts_with('[') {
            Value::String(text.to_string())
        } else if field == "early_stopping" && t == "never" {
            Value::String("never".into())
        } else {
            serde_json::from_str::<Value>(t).map_err(|_| ConfigError {
                field: Some(field.into()),
                message: format!("`{field}`: `{t}` is not a number"),
            })?
        };
        let mut probe = self.fields.clone();
        probe.insert(field.to_string(), value);
        GenerationConfig::from_value(Value::Object(probe.clone()))?;
        self.fields = probe;
        Ok(())
    }

    /// Switches the decoding mode by setting the knobs HF uses to choose it.
    pub fn set_mode(&mut self, mode: Mode) {
        let f = &mut self.fields;
        match mode {
            Mode::Greedy => {
                f.remove("do_sample");
                f.remove("num_beams");
                f.remove("penalty_alpha");
            }
            Mode::Sample => {
                f.insert("do_sample".into(), true.into());
                f.remove("num_beams");
                f.remove("penalty_alpha");
            }
            Mode::Beam => {
                f.remove("do_sample");
                f.remove("penalty_alpha");
                if f.get("num_beams").and_then(Value::as_i64).unwrap_or(1) < 2 {
                    f.insert("num_beams".into(), 4.into());
                }
            }
            Mode::Contrastive => {
                f.remove("do_sample");
                f.remove("num_beams");
                f.insert("penalty_alpha".into(), 0.6.into());
                f.insert("top_k".into(), 4.into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values_become_hf_fields_and_empty_resets() {
        let mut c = LaneConfig::default();
        c.set("temperature", "0.7").unwrap();
        c.set("stop_strings", ".").unwrap();
        // Keys come out sorted, so a lane's JSON is stable however it was edited.
        assert_eq!(
            c.to_json(),
            "{\n  \"stop_strings\": \".\",\n  \"temperature\": 0.7\n}"
        );
        c.set("temperature", "").unwrap();
        assert!(c.fields().get("temperature").is_none());
    }

    #[test]
    fn a_bad_value_names_its_field_and_changes_nothing() {
        let mut c = LaneConfig::default();
        let e = c.set("top_k", "many").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("top_k"));
        assert!(c.fields().is_empty());
    }

    #[test]
    fn mode_switches_set_the_knobs_hf_reads() {
        let mut c = LaneConfig::default();
        c.set_mode(Mode::Contrastive);
        assert_eq!(c.mode(), Mode::Contrastive);
        c.set_mode(Mode::Beam);
        assert_eq!(c.mode(), Mode::Beam);
        c.set_mode(Mode::Sample);
        assert_eq!(c.mode(), Mode::Sample);
        c.set_mode(Mode::Greedy);
        assert_eq!(c.mode(), Mode::Greedy);
    }

    #[test]
    fn json_round_trips_and_ignores_bookkeeping_keys() {
        let c = LaneConfig::from_json(
            r#"{"do_sample": true, "top_p": 0.9, "transformers_version": "4.0"}"#,
        )
        .unwrap();
        assert_eq!(LaneConfig::from_json(&c.to_json()).unwrap(), c);
        assert_eq!(c.mode(), Mode::Sample);
    }
}
