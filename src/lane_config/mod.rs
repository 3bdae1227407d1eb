//! A lane's knobs on the page: the typed [`LaneKnobs`] the decoding crate
//! defines (parsed once where a lane comes in), with what only the editor
//! needs — what a knob's box shows, what typing into it means, its
//! placeholder, and a folded lane's one-line summary.

use crate::i18n::I18n;
use ntl_decoding::config_rule::LlamaCppRule;
use ntl_decoding::llama_cpp::{LlamaCppConfig, LlamaCppKnob};
use ntl_decoding::{ConfigError, GenerationConfig, Knob};
use serde_json::Value;

mod knob_lists;
pub use knob_lists::*;
pub use ntl_decoding::LaneKnobs;

#[cfg(test)]
mod tests;

/// Knobs whose box holds plain text rather than JSON.
const RAW_TEXT: [&str; 4] = ["stop_strings", "dola_layers", "stop", "samplers"];

/// What the editor does with a lane's knobs as text.
pub trait KnobText {
    /// What a knob's box shows: the value set, else empty (the default is
    /// the placeholder).
    fn text(&self, knob: Knob) -> String;
    /// The same for any knob by name (a llama.cpp knob's too).
    fn text_of(&self, name: &str) -> String;
    /// One line for a folded lane: the mode, then every knob set, by name
    /// ("sample · temperature 0.7 · top_p 0.9 · seed 1").
    fn summary(&self, tr: &I18n) -> String;
    /// Sets an HF knob from what the user typed; empty means "the default".
    fn set_text(&mut self, knob: Knob, text: &str) -> Result<(), ConfigError>;
    /// Sets a llama.cpp knob from what the user typed.
    fn set_llama_cpp_text(&mut self, knob: LlamaCppKnob, text: &str) -> Result<(), ConfigError>;
}

impl KnobText for LaneKnobs {
    fn text(&self, knob: Knob) -> String {
        self.text_of(knob.name())
    }

    fn text_of(&self, name: &str) -> String {
        match self.to_value().get(name) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) if RAW_TEXT.contains(&name) => s.clone(),
            Some(v) => v.to_string(),
        }
    }

    fn summary(&self, tr: &I18n) -> String {
        let mode = tr.mode_words(self.mode());
        // The knobs that choose the mode say nothing the mode does not.
        let implied = [Knob::DoSample.name(), "semantics"];
        let value = self.to_value();
        let knobs = self
            .set_names()
            .into_iter()
            .filter(|k| !implied.contains(k))
            .map(|k| format!("{k} {}", value[k]));
        std::iter::once(mode)
            .chain(knobs)
            .collect::<Vec<_>>()
            .join(" · ")
    }

    fn set_text(&mut self, knob: Knob, text: &str) -> Result<(), ConfigError> {
        let t = text.trim();
        if t.is_empty() {
            self.clear(knob);
            return Ok(());
        }
        let value = if knob == Knob::StopStrings && !t.starts_with('[') {
            Value::String(text.to_string())
        } else if knob == Knob::EarlyStopping && t == "never" {
            Value::String("never".into())
        } else if knob == Knob::DolaLayers && !t.starts_with('[') && !t.starts_with('"') {
            // "low" / "high" typed without quotes.
            Value::String(t.to_string())
        } else {
            serde_json::from_str::<Value>(t).map_err(|_| ConfigError::NotANumber {
                knob,
                text: t.to_string(),
            })?
        };
        self.set(knob, value)
    }

    fn set_llama_cpp_text(&mut self, knob: LlamaCppKnob, text: &str) -> Result<(), ConfigError> {
        let t = text.trim();
        if t.is_empty() {
            self.clear_llama_cpp(knob);
            return Ok(());
        }
        let value = match knob {
            LlamaCppKnob::Stop if !t.starts_with('[') && !t.starts_with('"') => {
                Value::String(text.to_string())
            }
            // "top_k, temperature" typed as a list of names.
            LlamaCppKnob::Samplers if !t.starts_with('[') && !t.starts_with('"') => Value::Array(
                t.split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|n| !n.is_empty())
                    .map(|n| Value::String(n.to_string()))
                    .collect(),
            ),
            _ => serde_json::from_str::<Value>(t).map_err(|_| ConfigError::LlamaCpp {
                knob,
                rule: LlamaCppRule::NotANumber(t.to_string()),
            })?,
        };
        self.set_llama_cpp(knob, value)
    }
}

/// HF's default for a knob, shown as the input's placeholder.
pub fn default_text(knob: Knob) -> String {
    let d = serde_json::to_value(GenerationConfig::default()).expect("serialises");
    match d.get(knob.name()) {
        Some(Value::Null) | None => match knob {
            Knob::MaxNewTokens => "20".into(),
            Knob::EosTokenId => "model's".into(),
            _ => "off".into(),
        },
        Some(v) => v.to_string(),
    }
}

/// llama-server's default for a llama.cpp knob, as the input's placeholder.
pub fn llama_cpp_default_text(knob: LlamaCppKnob) -> String {
    let d = serde_json::to_value(LlamaCppConfig::default()).expect("serialises");
    match (knob, d.get(knob.name())) {
        (LlamaCppKnob::NPredict, _) => "-1 (until the context is full)".into(),
        (LlamaCppKnob::Seed, _) => "-1 (random)".into(),
        (LlamaCppKnob::Samplers, _) => ntl_decoding::llama_cpp::SamplerName::DEFAULT_ORDER
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(", "),
        (_, Some(Value::Null) | None) => "off".into(),
        (_, Some(v)) => v.to_string(),
    }
}
