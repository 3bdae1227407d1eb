//! A model's own generation defaults: the knobs its repo's
//! `generation_config.json` sets. HF's `generate()` starts from them (its
//! priority: the call's arguments, then the model's file, then the
//! library's defaults), so an Instruct model samples with its temperature
//! even when a lane says nothing about sampling — the lessons'
//! `generation_config` pitfall. A lane starts from them (as HF does) or from
//! the library's defaults, and the page shows which.

use crate::config_error::ConfigError;
use crate::lane_knobs::fields::copy_hf;
use crate::lane_knobs::LaneKnobs;
use crate::semantics::LaneConfig;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The knobs a model's `generation_config.json` sets (bookkeeping keys
/// dropped), read and checked as a lane's are.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
// Boxed: a model's info travels in every worker message enum that holds it.
pub struct ModelDefaults(Box<LaneKnobs>);

/// Where a lane's unset knobs come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Defaults {
    /// The model's `generation_config.json`, then the library's (HF's `generate()`).
    #[default]
    Model,
    /// HF's library defaults only (as if the repo had no `generation_config.json`).
    Library,
}

impl ModelDefaults {
    pub fn from_json(bytes: &[u8]) -> Result<ModelDefaults, ConfigError> {
        let value: Value = serde_json::from_slice(bytes).map_err(ConfigError::json)?;
        // HF's names only: `semantics` is a lane's word, not HF's.
        if value.get("semantics").is_some() {
            return Err(ConfigError::UnknownField {
                field: "semantics".into(),
                suggestion: None,
            });
        }
        let knobs = LaneKnobs::from_value(value)?;
        // Every knob checked as a lane's is (names, types, values).
        knobs.validate()?;
        Ok(ModelDefaults(Box::new(knobs)))
    }

    /// The knobs the file sets.
    pub fn knobs(&self) -> &LaneKnobs {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.set_names().is_empty()
    }

    /// The knobs that change what a lane does beyond the model's eos, as
    /// `name value` pairs (for "this model samples with temperature 0.7").
    pub fn beyond_eos(&self) -> Vec<(&'static str, Value)> {
        let values = self.0.to_value();
        self.0
            .set_names()
            .into_iter()
            .filter(|&k| k != "eos_token_id")
            .map(|k| (k, values[k].clone()))
            .collect()
    }

    /// A lane's config, typed as JSON, with the model's knobs under it.
    pub fn lane_config(&self, text: &str, defaults: Defaults) -> Result<LaneConfig, ConfigError> {
        self.lane(&LaneKnobs::from_json(text)?, defaults)
    }

    /// A lane's config as it runs: what the lane sets wins, the rest comes
    /// from the model. A llama.cpp lane speaks other names and is left as it
    /// is; so is a lane that asks for the library's defaults.
    pub fn lane(&self, lane: &LaneKnobs, defaults: Defaults) -> Result<LaneConfig, ConfigError> {
        match lane {
            LaneKnobs::Transformers { config, set } if defaults == Defaults::Model => {
                let mut merged = self.0.hf().cloned().unwrap_or_default();
                for &knob in set {
                    copy_hf(knob, config, &mut merged);
                }
                Ok(LaneConfig::Transformers(merged))
            }
            _ => Ok(lane.config()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Qwen2.5-0.5B-Instruct's generation_config.json.
    const QWEN_INSTRUCT: &str = r#"{"bos_token_id": 151643, "pad_token_id": 151643,
        "do_sample": true, "eos_token_id": [151645, 151643], "repetition_penalty": 1.1,
        "temperature": 0.7, "top_p": 0.8, "top_k": 20, "transformers_version": "4.37.0"}"#;

    #[test]
    fn an_instruct_models_file_keeps_its_knobs_and_drops_bookkeeping() {
        let d = ModelDefaults::from_json(QWEN_INSTRUCT.as_bytes()).unwrap();
        let keys = d.knobs().set_names();
        assert_eq!(
            keys,
            [
                "do_sample",
                "eos_token_id",
                "repetition_penalty",
                "temperature",
                "top_k",
                "top_p"
            ]
        );
        assert_eq!(d.beyond_eos().len(), 5);
    }

    #[test]
    fn a_lane_saying_nothing_samples_as_the_model_says_and_its_own_knobs_win() {
        let d = ModelDefaults::from_json(QWEN_INSTRUCT.as_bytes()).unwrap();
        let greedy_by_omission = d.lane_config("{}", Defaults::Model).unwrap();
        let c = greedy_by_omission.transformers().unwrap();
        assert!(c.do_sample);
        assert_eq!((c.temperature, c.top_k, c.top_p), (0.7, Some(20), 0.8));
        let said = d.lane_config(r#"{"do_sample": false, "top_k": 5}"#, Defaults::Model);
        let said = said.unwrap();
        let c = said.transformers().unwrap();
        assert!(!c.do_sample);
        assert_eq!((c.top_k, c.temperature), (Some(5), 0.7));
    }

    #[test]
    fn library_defaults_and_llama_cpp_lanes_are_left_as_they_are() {
        let d = ModelDefaults::from_json(QWEN_INSTRUCT.as_bytes()).unwrap();
        assert_eq!(
            d.lane_config("{}", Defaults::Library).unwrap(),
            LaneConfig::default()
        );
        let llama = r#"{"semantics": "llama.cpp", "temperature": 0.5}"#;
        assert_eq!(
            d.lane_config(llama, Defaults::Model).unwrap(),
            LaneConfig::from_json(llama).unwrap()
        );
    }

    #[test]
    fn a_bad_file_is_named_by_its_knob() {
        let e = ModelDefaults::from_json(br#"{"semantics": "llama.cpp"}"#).unwrap_err();
        assert_eq!(e.field(), Some("semantics"));
        let e = ModelDefaults::from_json(br#"{"temperature": "hot"}"#).unwrap_err();
        assert!(e.to_string().contains("temperature"), "{e}");
        let e = ModelDefaults::from_json(br#"{"top_p": 1.5}"#).unwrap_err();
        assert!(e.to_string().contains("top_p"), "{e}");
    }
}
