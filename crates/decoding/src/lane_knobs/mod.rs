//! A lane's knobs as written: the typed config and which of its knobs were
//! set. What a share link, a lesson file and the page's editor hold — read
//! once at the boundary ([`LaneKnobs::from_value`]), edited by typed
//! operations (`edit`), written back as the knobs set and nothing else
//! (HF's `generation_config` diff, or llama-server's fields after
//! `"semantics": "llama.cpp"`).
//!
//! Which knobs were set matters beyond the values: a knob set to its
//! library default still wins over the model's `generation_config.json`.
//!
//! ```
//! use ntl_decoding::{Knob, LaneKnobs, Mode, Semantics};
//! use serde_json::json;
//!
//! // A lane as a share link or a lesson carries it.
//! let mut lane = LaneKnobs::from_json(r#"{"do_sample": true, "top_p": 0.9}"#)?;
//! assert_eq!(lane.mode(), Mode::Sample);
//! assert_eq!(lane.hf().unwrap().top_k, Some(50), "HF's default for what is not set");
//!
//! // Edits are typed; a refused value changes nothing and names its knob.
//! lane.set(Knob::Temperature, json!(0.7))?;
//! assert_eq!(lane.set(Knob::TopK, json!("ten")).unwrap_err().knob(), Some(Knob::TopK));
//! assert_eq!(
//!     lane.to_value(),
//!     json!({"do_sample": true, "temperature": 0.7, "top_p": 0.9})
//! );
//!
//! // The same lane in llama.cpp's names, and the checked form the loop reads.
//! lane.set_semantics(Semantics::LlamaCpp);
//! assert_eq!(
//!     lane.to_value(),
//!     json!({"semantics": "llama.cpp", "temperature": 0.7, "top_p": 0.9})
//! );
//! assert_eq!(lane.validate()?.mode, Mode::LlamaCpp);
//! # Ok::<(), ntl_decoding::ConfigError>(())
//! ```
//!
//! - `fields`: one knob's value copied between two configs (typed, by name);
//! - `edit`: setting, clearing, the mode and the ecosystem;
//! - `switch`: a lane moved between HF and llama.cpp.

mod edit;
pub(crate) mod fields;
mod switch;
#[cfg(test)]
mod tests;

use crate::config::GenerationConfig;
use crate::config_error::ConfigError;
use crate::knob::Knob;
use crate::llama_cpp::config::LlamaCppConfig;
use crate::llama_cpp::knob::LlamaCppKnob;
use crate::mode::Mode;
use crate::semantics::{LaneConfig, Semantics};
use crate::tutorial::config::FIELDS as TUTORIAL_FIELDS;
use crate::tutorial::TutorialConfig;
use crate::ValidConfig;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// A lane's typed config and the knobs it sets (the rest are its
/// ecosystem's defaults, or the model's file's for an HF lane).
// As with `LaneConfig`: four lanes hold one each; boxing the larger variant
// would buy nothing measurable and cost every edit a deref.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum LaneKnobs {
    Transformers {
        config: GenerationConfig,
        set: BTreeSet<Knob>,
    },
    LlamaCpp {
        config: LlamaCppConfig,
        set: BTreeSet<LlamaCppKnob>,
    },
    /// Seed 004's loop; `set` holds names from [`crate::tutorial::config::FIELDS`].
    Tutorial {
        config: TutorialConfig,
        set: BTreeSet<&'static str>,
    },
}

impl Default for LaneKnobs {
    fn default() -> Self {
        LaneKnobs::Transformers {
            config: GenerationConfig::default(),
            set: BTreeSet::new(),
        }
    }
}

impl LaneKnobs {
    /// A llama.cpp lane with llama-server's defaults.
    pub fn llama_cpp() -> LaneKnobs {
        LaneKnobs::LlamaCpp {
            config: LlamaCppConfig::default(),
            set: BTreeSet::new(),
        }
    }

    pub fn from_json(text: &str) -> Result<LaneKnobs, ConfigError> {
        let value: Value = serde_json::from_str(text).map_err(ConfigError::json)?;
        LaneKnobs::from_value(value)
    }

    /// Reads a lane's config object: names and types checked by the
    /// ecosystem's parser, bookkeeping keys (`transformers_version`) dropped.
    pub fn from_value(value: Value) -> Result<LaneKnobs, ConfigError> {
        let config = LaneConfig::from_value(value.clone())?;
        let keys = value.as_object().map(Map::iter).into_iter().flatten();
        Ok(match config {
            LaneConfig::Transformers(config) => LaneKnobs::Transformers {
                config,
                set: keys.filter_map(|(k, _)| k.parse().ok()).collect(),
            },
            // llama-server reads `null` as "the default": not set.
            LaneConfig::LlamaCpp(config) => LaneKnobs::LlamaCpp {
                config,
                set: keys
                    .filter(|(_, v)| !v.is_null())
                    .filter_map(|(k, _)| k.parse().ok())
                    .filter(|k| *k != LlamaCppKnob::Semantics)
                    .collect(),
            },
            LaneConfig::Tutorial(config) => LaneKnobs::Tutorial {
                config,
                set: tutorial_names(keys.filter(|(_, v)| !v.is_null()).map(|(k, _)| k.as_str())),
            },
        })
    }

    /// A config as it ran (an export's), as the knobs that differ from its
    /// ecosystem's defaults.
    pub fn differing(config: &LaneConfig) -> LaneKnobs {
        match config {
            LaneConfig::Transformers(c) => {
                let d = GenerationConfig::default();
                LaneKnobs::Transformers {
                    config: c.clone(),
                    set: Knob::ALL
                        .iter()
                        .copied()
                        .filter(|&k| !fields::same_hf(k, c, &d))
                        .collect(),
                }
            }
            LaneConfig::LlamaCpp(c) => {
                let d = LlamaCppConfig::default();
                LaneKnobs::LlamaCpp {
                    config: c.clone(),
                    set: LlamaCppKnob::ALL
                        .iter()
                        .copied()
                        .filter(|&k| k != LlamaCppKnob::Semantics)
                        .filter(|&k| !fields::same_llama_cpp(k, c, &d))
                        .collect(),
                }
            }
            LaneConfig::Tutorial(c) => {
                let v = c.to_value();
                LaneKnobs::Tutorial {
                    config: c.clone(),
                    set: tutorial_names(
                        v.as_object().into_iter().flatten().map(|(k, _)| k.as_str()),
                    ),
                }
            }
        }
    }

    /// The knobs set, as the lane's config object.
    pub fn to_value(&self) -> Value {
        let mut out = Map::new();
        let mut all = match self {
            LaneKnobs::Transformers { config, .. } => serde_json::to_value(config),
            LaneKnobs::LlamaCpp { config, .. } => {
                out.insert("semantics".into(), Semantics::LlamaCpp.name().into());
                serde_json::to_value(config)
            }
            LaneKnobs::Tutorial { config, .. } => {
                out.insert("semantics".into(), Semantics::Tutorial.name().into());
                serde_json::to_value(config)
            }
        }
        .expect("config serialises");
        for name in self.set_names() {
            out.insert(name.into(), all[name].take());
        }
        Value::Object(out)
    }

    /// The lane's config as JSON text (only what was set; keys sorted).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.to_value()).expect("serialises")
    }

    /// Whether the lane sets a knob, by the name it travels under.
    pub fn is_set(&self, name: &str) -> bool {
        match self {
            LaneKnobs::Transformers { set, .. } => name.parse().is_ok_and(|k| set.contains(&k)),
            LaneKnobs::LlamaCpp { set, .. } => name.parse().is_ok_and(|k| set.contains(&k)),
            LaneKnobs::Tutorial { set, .. } => set.contains(name),
        }
    }

    /// The names of the knobs set, sorted.
    pub fn set_names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = match self {
            LaneKnobs::Transformers { set, .. } => set.iter().map(|k| k.name()).collect(),
            LaneKnobs::LlamaCpp { set, .. } => set.iter().map(|k| k.name()).collect(),
            LaneKnobs::Tutorial { set, .. } => set.iter().copied().collect(),
        };
        names.sort_unstable();
        names
    }

    /// The typed config (the ecosystem's defaults for what is not set), as
    /// the worker takes it.
    pub fn config(&self) -> LaneConfig {
        match self {
            LaneKnobs::Transformers { config, .. } => LaneConfig::Transformers(config.clone()),
            LaneKnobs::LlamaCpp { config, .. } => LaneConfig::LlamaCpp(config.clone()),
            LaneKnobs::Tutorial { config, .. } => LaneConfig::Tutorial(config.clone()),
        }
    }

    pub fn semantics(&self) -> Semantics {
        match self {
            LaneKnobs::Transformers { .. } => Semantics::Transformers,
            LaneKnobs::LlamaCpp { .. } => Semantics::LlamaCpp,
            LaneKnobs::Tutorial { .. } => Semantics::Tutorial,
        }
    }

    /// The HF config of an HF lane; `None` for a llama.cpp lane.
    pub fn hf(&self) -> Option<&GenerationConfig> {
        match self {
            LaneKnobs::Transformers { config, .. } => Some(config),
            LaneKnobs::LlamaCpp { .. } | LaneKnobs::Tutorial { .. } => None,
        }
    }

    pub fn llama_cpp_config(&self) -> Option<&LlamaCppConfig> {
        match self {
            LaneKnobs::LlamaCpp { config, .. } => Some(config),
            LaneKnobs::Transformers { .. } | LaneKnobs::Tutorial { .. } => None,
        }
    }

    pub fn validate(&self) -> Result<ValidConfig, ConfigError> {
        match self {
            LaneKnobs::Transformers { config, .. } => config.validate(),
            LaneKnobs::LlamaCpp { config, .. } => config.validate_lane(),
            LaneKnobs::Tutorial { config, .. } => config.validate_lane(),
        }
    }

    pub fn mode(&self) -> Mode {
        match self {
            LaneKnobs::Transformers { config, .. } => config.mode(),
            LaneKnobs::LlamaCpp { .. } => Mode::LlamaCpp,
            LaneKnobs::Tutorial { .. } => Mode::Tutorial,
        }
    }

    /// The lane's own seed (either ecosystem's), when sampling uses one;
    /// `None` also when the lane draws a new seed each run.
    pub fn seed(&self) -> Option<u64> {
        match self {
            LaneKnobs::Transformers { config: c, .. } => c.seed.filter(|_| c.do_sample),
            LaneKnobs::LlamaCpp { config: c, .. } => (c.temperature > 0.0 || c.mirostat != 0)
                .then_some(c.seed)
                .filter(|&s| s >= 0)
                .map(|s| s as u64),
            LaneKnobs::Tutorial { config: c, .. } => c.seed.filter(|_| c.do_sample),
        }
    }
}

/// The tutorial field names among `keys`, as the table spells them.
fn tutorial_names<'a>(keys: impl Iterator<Item = &'a str>) -> BTreeSet<&'static str> {
    keys.filter_map(|k| TUTORIAL_FIELDS.iter().find(|f| **f == k).copied())
        .collect()
}

impl Serialize for LaneKnobs {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(s)
    }
}

impl<'de> Deserialize<'de> for LaneKnobs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        LaneKnobs::from_value(Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}
