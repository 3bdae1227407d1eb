//! Edits on a lane's knobs: one knob set from a JSON value or cleared back
//! to its default, the decoding mode, the ecosystem. A value is checked by
//! the ecosystem's own parser for that one field; a refused value leaves the
//! lane as it was.

use super::fields::{copy_hf, copy_llama_cpp};
use super::LaneKnobs;
use crate::config::GenerationConfig;
use crate::config_error::ConfigError;
use crate::knob::Knob;
use crate::llama_cpp::config::LlamaCppConfig;
use crate::llama_cpp::knob::LlamaCppKnob;
use crate::mode::Mode;
use crate::semantics::Semantics;
use serde_json::{json, Value};
use std::collections::BTreeSet;

impl LaneKnobs {
    /// Sets an HF knob (a llama.cpp lane becomes an HF lane first).
    pub fn set(&mut self, knob: Knob, value: Value) -> Result<(), ConfigError> {
        let parsed = GenerationConfig::from_value(json!({ knob.name(): value }))?;
        self.set_semantics(Semantics::Transformers);
        if let LaneKnobs::Transformers { config, set } = self {
            copy_hf(knob, &parsed, config);
            set.insert(knob);
        }
        Ok(())
    }

    /// Sets a llama.cpp knob (an HF lane becomes a llama.cpp lane first);
    /// `null` is llama-server's "the default".
    pub fn set_llama_cpp(&mut self, knob: LlamaCppKnob, value: Value) -> Result<(), ConfigError> {
        if knob == LlamaCppKnob::Semantics {
            self.set_semantics(Semantics::of(&json!({ "semantics": value }))?);
            return Ok(());
        }
        if value.is_null() {
            self.clear_llama_cpp(knob);
            return Ok(());
        }
        let parsed = LlamaCppConfig::from_value(json!({ knob.name(): value }))?;
        self.set_semantics(Semantics::LlamaCpp);
        if let LaneKnobs::LlamaCpp { config, set } = self {
            copy_llama_cpp(knob, &parsed, config);
            set.insert(knob);
        }
        Ok(())
    }

    /// The lane with `seed` as its own seed, in its own ecosystem (a seed
    /// drawn for a run, kept so the run repeats).
    pub fn with_seed(&self, seed: u32) -> LaneKnobs {
        let mut lane = self.clone();
        let value = json!(seed);
        let set = match lane.semantics() {
            Semantics::Transformers => lane.set(Knob::Seed, value),
            Semantics::LlamaCpp => lane.set_llama_cpp(LlamaCppKnob::Seed, value),
            Semantics::Tutorial => {
                if let LaneKnobs::Tutorial { config, set } = &mut lane {
                    config.seed = Some(seed as u64);
                    set.insert("seed");
                }
                Ok(())
            }
        };
        debug_assert!(set.is_ok(), "every u32 is a seed in both ecosystems");
        lane
    }

    /// A tutorial field set to `value` (`None`: back to seed 004's default);
    /// the lane becomes a tutorial lane.
    pub fn set_tutorial(&mut self, name: &str, value: Option<Value>) -> Result<(), ConfigError> {
        self.set_semantics(Semantics::Tutorial);
        let LaneKnobs::Tutorial { config, set } = self else {
            return Ok(());
        };
        let mut v = serde_json::to_value(&*config).expect("serialises");
        let map = v.as_object_mut().expect("an object");
        match &value {
            Some(x) => map.insert(name.to_string(), x.clone()),
            None => map.remove(name),
        };
        let parsed = crate::tutorial::TutorialConfig::from_value(v)?;
        let name = crate::tutorial::config::FIELDS
            .iter()
            .find(|f| **f == name)
            .copied()
            .expect("from_value accepted the name");
        *config = parsed;
        match value {
            Some(_) => set.insert(name),
            None => set.remove(name),
        };
        Ok(())
    }

    /// An HF knob back to HF's default (or the model's file's, when the
    /// lane starts from it).
    pub fn clear(&mut self, knob: Knob) {
        if let LaneKnobs::Transformers { config, set } = self {
            unset(config, set, knob);
        }
    }

    /// A llama.cpp knob back to llama-server's default.
    pub fn clear_llama_cpp(&mut self, knob: LlamaCppKnob) {
        if let LaneKnobs::LlamaCpp { config, set } = self {
            copy_llama_cpp(knob, &LlamaCppConfig::default(), config);
            set.remove(&knob);
        }
    }

    /// Switches the decoding mode by setting the knobs HF uses to choose it
    /// (llama.cpp's is its own ecosystem).
    pub fn set_mode(&mut self, mode: Mode) {
        if mode == Mode::LlamaCpp {
            return self.set_semantics(Semantics::LlamaCpp);
        }
        if mode == Mode::Tutorial {
            return self.set_semantics(Semantics::Tutorial);
        }
        self.set_semantics(Semantics::Transformers);
        let LaneKnobs::Transformers { config: c, set } = self else {
            return;
        };
        if mode != Mode::GroupBeam {
            unset(c, set, Knob::NumBeamGroups);
            unset(c, set, Knob::DiversityPenalty);
        }
        if !matches!(mode, Mode::Greedy | Mode::Sample) {
            unset(c, set, Knob::DolaLayers);
        }
        if mode != Mode::ConstrainedBeam {
            unset(c, set, Knob::ForceWordsIds);
        }
        if mode != Mode::Contrastive {
            unset(c, set, Knob::PenaltyAlpha);
        }
        match mode {
            Mode::Greedy => {
                unset(c, set, Knob::DoSample);
                unset(c, set, Knob::NumBeams);
            }
            Mode::Sample => {
                c.do_sample = true;
                set.insert(Knob::DoSample);
                unset(c, set, Knob::NumBeams);
            }
            // Constrained search is entered by giving `force_words_ids`; here it
            // keeps them and sets up the beams they need.
            Mode::Beam | Mode::BeamSample | Mode::ConstrainedBeam => {
                if mode == Mode::BeamSample {
                    c.do_sample = true;
                    set.insert(Knob::DoSample);
                } else {
                    unset(c, set, Knob::DoSample);
                }
                if c.num_beams < 2 {
                    c.num_beams = 4;
                    set.insert(Knob::NumBeams);
                }
            }
            Mode::GroupBeam => {
                unset(c, set, Knob::DoSample);
                // Two groups of two unless the lane already has an even beam count.
                if c.num_beams < 2 || c.num_beams % 2 != 0 {
                    c.num_beams = 4;
                    set.insert(Knob::NumBeams);
                }
                c.num_beam_groups = 2;
                set.insert(Knob::NumBeamGroups);
                if !set.contains(&Knob::DiversityPenalty) {
                    c.diversity_penalty = 1.0;
                    set.insert(Knob::DiversityPenalty);
                }
            }
            Mode::Contrastive => {
                unset(c, set, Knob::DoSample);
                unset(c, set, Knob::NumBeams);
                c.penalty_alpha = Some(0.6);
                c.top_k = Some(4);
                set.extend([Knob::PenaltyAlpha, Knob::TopK]);
            }
            Mode::LlamaCpp | Mode::Tutorial => {}
        }
    }
}

/// A knob back to HF's default and no longer set.
fn unset(c: &mut GenerationConfig, set: &mut BTreeSet<Knob>, knob: Knob) {
    copy_hf(knob, &GenerationConfig::default(), c);
    set.remove(&knob);
}
