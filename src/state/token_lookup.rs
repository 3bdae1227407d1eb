//! The token inspector's look-up put to use: a text's ids as a lane's eos,
//! stop string, banned words or forced words.

use super::outcome::{Command, Outcome};
use super::Page;
use crate::lanes::LANES;
use crate::said::Said;
use ntl_decoding::llama_cpp::LlamaCppKnob;
use ntl_decoding::{Knob, Mode, Semantics};

/// What a looked-up text becomes in a lane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LookupUse {
    /// Its one token, as `eos_token_id`.
    Eos,
    /// The text, as a stop string.
    StopString,
    /// Its tokens, one more sequence in `bad_words_ids`.
    BadWords,
    /// Its tokens, one more phrase in `force_words_ids` (the lane becomes a
    /// constrained beam search).
    ForceWords,
}

impl Page {
    /// A text typed into the inspector's look-up.
    pub fn look_up(&mut self, text: String) -> Outcome {
        let request = if self.model.is_ready() && self.worker.alive {
            self.inspector.make_mut().look_up(text)
        } else {
            self.inspector.make_mut().lookup_text = text;
            None
        };
        Outcome::redraw().and_maybe(request.map(Command::Send))
    }

    /// The looked-up text put to use in a lane: as its eos token (one token
    /// only) or as its stop string.
    pub fn use_lookup(&mut self, lane: usize, use_as: LookupUse) -> Outcome {
        if lane >= LANES {
            return Outcome::unchanged();
        }
        match use_as {
            LookupUse::Eos => {
                let Some(id) = self.inspector.lookup_single() else {
                    return Outcome::unchanged();
                };
                self.editor
                    .set_knob(lane, Knob::EosTokenId, &id.to_string());
            }
            LookupUse::StopString => {
                let text = self.inspector.lookup_text.clone();
                if text.is_empty() {
                    return Outcome::unchanged();
                }
                let json = serde_json::to_string(&[text]).expect("strings serialise");
                self.editor.set_knob(lane, Knob::StopStrings, &json);
            }
            LookupUse::BadWords => {
                let Some(Ok(tokens)) = &self.inspector.lookup else {
                    return Outcome::unchanged();
                };
                let word: Vec<i64> = tokens.iter().map(|t| i64::from(t.id)).collect();
                if word.is_empty() {
                    return Outcome::unchanged();
                }
                if self.editor.lanes[lane].semantics() == Semantics::LlamaCpp {
                    // llama.cpp bans tokens, not sequences: each token of the
                    // text gets `false`, as llama-server does for a text key.
                    let mut biases: Vec<serde_json::Value> = self.editor.lanes[lane]
                        .llama_cpp_config()
                        .and_then(|c| c.logit_bias.clone())
                        .and_then(|v| v.as_array().cloned())
                        .unwrap_or_default();
                    for id in &word {
                        let entry = serde_json::json!([id, false]);
                        if !biases.contains(&entry) {
                            biases.push(entry);
                        }
                    }
                    let json = serde_json::Value::Array(biases).to_string();
                    self.editor
                        .set_llama_knob(lane, LlamaCppKnob::LogitBias, &json);
                    return Outcome::redraw();
                }
                // Added to the lane's list, once.
                let mut words = self.editor.lanes[lane]
                    .hf()
                    .and_then(|c| c.bad_words_ids.clone())
                    .unwrap_or_default();
                if !words.contains(&word) {
                    words.push(word);
                }
                let json = serde_json::to_string(&words).expect("ids serialise");
                self.editor.set_knob(lane, Knob::BadWordsIds, &json);
            }
            LookupUse::ForceWords => {
                let Some(Ok(tokens)) = &self.inspector.lookup else {
                    return Outcome::unchanged();
                };
                let word: Vec<i64> = tokens.iter().map(|t| i64::from(t.id)).collect();
                if word.is_empty() {
                    return Outcome::unchanged();
                }
                let Some(config) = self.editor.lanes[lane].hf().cloned() else {
                    self.editor
                        .lane_failed(lane, None, Said::NoConstrainedSearchInLlama);
                    return Outcome::redraw();
                };
                let mut words = config.force_words_ids.clone().unwrap_or_default();
                let phrase = ntl_decoding::constraints::ForceWord::Phrase(word);
                if !words.contains(&phrase) {
                    words.push(phrase);
                }
                // Constrained search runs on beams, without sampling or groups.
                let mode = config.mode();
                // (Beam sampling becomes plain beam search: HF's constrained search cannot sample.)
                if !matches!(mode, Mode::Beam | Mode::ConstrainedBeam) {
                    self.editor.set_mode(lane, Mode::Beam);
                }
                let json = serde_json::to_string(&words).expect("ids serialise");
                self.editor.set_knob(lane, Knob::ForceWordsIds, &json);
            }
        }
        Outcome::redraw()
    }
}
