//! A lane's configuration as the user edits it: only the fields they set (so a
//! lane's JSON is its HF `generation_config` diff), typed text per knob, and
//! validation through the decoding crate — never re-implemented here. The
//! parsed config is kept beside the fields, so rendering never re-parses.

use ntl_decoding::llama_cpp::{LlamaCppConfig, LlamaCppKnob};
use ntl_decoding::{ConfigError, GenerationConfig, Knob, Mode, Semantics, ValidConfig};
use serde_json::{Map, Value};

mod knob_lists;
pub use knob_lists::*;

#[cfg(test)]
mod tests;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct LaneConfig {
    /// The fields as set, by name (HF's, or llama-server's after
    /// `"semantics": "llama.cpp"`).
    fields: Map<String, Value>,
    /// The same fields parsed (the ecosystem's defaults for the rest); always in step.
    parsed: Parsed,
}

/// Knobs with the same name and, near enough, the same meaning in both
/// ecosystems: they travel when a lane switches.
const SHARED_NAMES: &[&str] = &[
    "temperature",
    "top_k",
    "top_p",
    "min_p",
    "typical_p",
    "seed",
    "frequency_penalty",
    "presence_penalty",
];

/// The parsed config, in its ecosystem.
type Parsed = ntl_decoding::LaneConfig;

impl LaneConfig {
    pub fn from_json(text: &str) -> Result<LaneConfig, ConfigError> {
        // The decoding crate words every error; once it accepts the text,
        // the text is an object.
        ntl_decoding::LaneConfig::from_json(text)?;
        LaneConfig::from_fields(serde_json::from_str(text).unwrap_or_default())
    }

    /// A lane from a field map (a share link's, already checked by its decoder).
    pub fn from_fields(fields: Map<String, Value>) -> Result<LaneConfig, ConfigError> {
        let parsed = ntl_decoding::LaneConfig::from_value(Value::Object(fields.clone()))?;
        Ok(LaneConfig::parsed(fields, parsed))
    }

    /// Keeps only the knobs among `fields` (the parser already dropped
    /// keys such as `transformers_version` from the parsed config).
    fn parsed(fields: Map<String, Value>, parsed: Parsed) -> LaneConfig {
        let llama = matches!(parsed, Parsed::LlamaCpp(_));
        let fields = fields
            .into_iter()
            .filter(|(k, _)| {
                if llama {
                    k.parse::<LlamaCppKnob>().is_ok()
                } else {
                    k.parse::<Knob>().is_ok()
                }
            })
            .collect();
        LaneConfig { fields, parsed }
    }

    pub fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }

    /// The lane's config as JSON text (only what was set).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.fields).expect("serialises")
    }

    pub fn semantics(&self) -> Semantics {
        match self.parsed {
            Parsed::Transformers(_) => Semantics::Transformers,
            Parsed::LlamaCpp(_) => Semantics::LlamaCpp,
        }
    }

    /// The HF config of an HF lane (what the sandbox, lessons and HF
    /// warnings read); `None` for a llama.cpp lane.
    pub fn hf(&self) -> Option<&GenerationConfig> {
        match &self.parsed {
            Parsed::Transformers(c) => Some(c),
            Parsed::LlamaCpp(_) => None,
        }
    }

    pub fn llama_cpp(&self) -> Option<&LlamaCppConfig> {
        match &self.parsed {
            Parsed::LlamaCpp(c) => Some(c),
            Parsed::Transformers(_) => None,
        }
    }

    /// The config as the worker takes it.
    pub fn config(&self) -> ntl_decoding::LaneConfig {
        self.parsed.clone()
    }

    pub fn validate(&self) -> Result<ValidConfig, ConfigError> {
        self.parsed.validate()
    }

    pub fn mode(&self) -> Mode {
        match &self.parsed {
            Parsed::Transformers(c) => c.mode(),
            Parsed::LlamaCpp(_) => Mode::LlamaCpp,
        }
    }

    /// The lane's seed (either ecosystem's), when sampling uses one.
    pub fn seed(&self) -> Option<u64> {
        match &self.parsed {
            Parsed::Transformers(c) => c.do_sample.then(|| c.seed.unwrap_or(0)),
            Parsed::LlamaCpp(c) => (c.temperature > 0.0 || c.mirostat != 0)
                .then_some(c.seed)
                .filter(|&s| s >= 0)
                .map(|s| s as u64),
        }
    }

    /// Moves the lane to the other ecosystem, keeping what means the same
    /// there: the shared names, the budget (`max_new_tokens` and
    /// `n_predict`), stop strings, the repetition penalty, and greedy as
    /// temperature 0 (llama.cpp's greedy) and back.
    pub fn set_semantics(&mut self, to: Semantics) {
        if to == self.semantics() {
            return;
        }
        let from = &self.fields;
        let mut f = Map::new();
        for name in SHARED_NAMES {
            if let Some(v) = from.get(*name) {
                f.insert((*name).into(), v.clone());
            }
        }
        let renames = [
            ("max_new_tokens", "n_predict"),
            ("repetition_penalty", "repeat_penalty"),
            ("stop_strings", "stop"),
        ];
        match to {
            Semantics::LlamaCpp => {
                f.insert("semantics".into(), "llama.cpp".into());
                for (hf, llama) in renames {
                    if let Some(v) = from.get(hf) {
                        f.insert(llama.into(), v.clone());
                    }
                }
                if self.mode() != Mode::Sample {
                    f.insert("temperature".into(), 0.into());
                }
                if matches!(from.get("top_k"), Some(Value::Null)) {
                    f.insert("top_k".into(), 0.into());
                }
            }
            Semantics::Transformers => {
                for (hf, llama) in renames {
                    if let Some(v) = from.get(llama) {
                        f.insert(hf.into(), v.clone());
                    }
                }
                let greedy = self.llama_cpp().is_some_and(|c| c.temperature <= 0.0);
                if greedy {
                    f.remove("temperature");
                } else {
                    f.insert("do_sample".into(), true.into());
                }
                if f.get("n_predict").is_some() {
                    f.remove("n_predict");
                }
            }
        }
        // Values that were valid in one ecosystem can be out of range in the
        // other (a -1 budget): what does not parse is left at the default.
        let keys: Vec<String> = f.keys().cloned().collect();
        let mut kept = Map::new();
        if to == Semantics::LlamaCpp {
            kept.insert("semantics".into(), "llama.cpp".into());
        }
        for k in keys {
            let mut probe = kept.clone();
            probe.insert(k.clone(), f[&k].clone());
            if ntl_decoding::LaneConfig::from_value(Value::Object(probe.clone()))
                .and_then(|c| c.validate().map(drop))
                .is_ok()
            {
                kept = probe;
            }
        }
        *self = LaneConfig::from_fields(kept).unwrap_or_else(|_| match to {
            Semantics::LlamaCpp => LaneConfig::from_fields(
                serde_json::json!({"semantics": "llama.cpp"})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            )
            .unwrap_or_default(),
            Semantics::Transformers => LaneConfig::default(),
        });
    }

    /// What a knob's input shows: the value set, else empty (the default is the placeholder).
    pub fn text(&self, knob: Knob) -> String {
        self.text_of(knob.name())
    }

    /// The same for any field by name (a llama.cpp knob's too).
    pub fn text_of(&self, name: &str) -> String {
        let raw_text = ["stop_strings", "dola_layers", "stop", "samplers"];
        match self.fields.get(name) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) if raw_text.contains(&name) => s.clone(),
            Some(v) => v.to_string(),
        }
    }

    /// One line for a folded lane: the mode, then every knob set, by HF
    /// name ("sample · temperature 0.7 · top_p 0.9 · seed 1").
    pub fn summary(&self) -> String {
        let mode = match self.mode() {
            Mode::LlamaCpp => "llama.cpp",
            Mode::Greedy => "greedy",
            Mode::Sample => "sample",
            Mode::Beam => "beam search",
            Mode::BeamSample => "beam sampling",
            Mode::GroupBeam => "diverse beam search",
            Mode::ConstrainedBeam => "constrained beam search",
            Mode::Contrastive => "contrastive",
        };
        // The knobs that choose the mode say nothing the mode does not.
        let implied = [Knob::DoSample.name(), "semantics"];
        let knobs = self
            .fields
            .iter()
            .filter(|(k, _)| !implied.contains(&k.as_str()))
            .map(|(k, v)| format!("{k} {v}"));
        std::iter::once(mode.to_string())
            .chain(knobs)
            .collect::<Vec<_>>()
            .join(" · ")
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

    /// Sets a llama.cpp knob from what the user typed (a llama.cpp lane only).
    pub fn set_llama_cpp(&mut self, knob: LlamaCppKnob, text: &str) -> Result<(), ConfigError> {
        let t = text.trim();
        let mut probe = self.fields.clone();
        if t.is_empty() {
            probe.remove(knob.name());
        } else {
            let value = match knob {
                LlamaCppKnob::Stop if !t.starts_with('[') && !t.starts_with('"') => {
                    Value::String(text.to_string())
                }
                // "top_k, temperature" typed as a list of names.
                LlamaCppKnob::Samplers if !t.starts_with('[') && !t.starts_with('"') => {
                    Value::Array(
                        t.split(|c: char| c == ',' || c.is_whitespace())
                            .filter(|n| !n.is_empty())
                            .map(|n| Value::String(n.to_string()))
                            .collect(),
                    )
                }
                _ => serde_json::from_str::<Value>(t).map_err(|_| ConfigError::LlamaCpp {
                    knob,
                    message: format!("`{knob}`: `{t}` is not a number"),
                })?,
            };
            probe.insert(knob.name().to_string(), value);
        }
        probe.insert("semantics".into(), "llama.cpp".into());
        let parsed = LlamaCppConfig::from_value(Value::Object(probe.clone()))?;
        self.parsed = Parsed::LlamaCpp(parsed);
        self.fields = probe;
        Ok(())
    }

    /// Sets a knob from what the user typed; empty text means "back to the default".
    pub fn set(&mut self, knob: Knob, text: &str) -> Result<(), ConfigError> {
        if self.semantics() == Semantics::LlamaCpp {
            self.set_semantics(Semantics::Transformers);
        }
        let t = text.trim();
        let mut probe = self.fields.clone();
        if t.is_empty() {
            probe.remove(knob.name());
        } else {
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
            probe.insert(knob.name().to_string(), value);
        }
        self.parsed =
            Parsed::Transformers(GenerationConfig::from_value(Value::Object(probe.clone()))?);
        self.fields = probe;
        Ok(())
    }

    /// Switches the decoding mode by setting the knobs HF uses to choose it.
    pub fn set_mode(&mut self, mode: Mode) {
        if mode == Mode::LlamaCpp {
            return self.set_semantics(Semantics::LlamaCpp);
        }
        self.set_semantics(Semantics::Transformers);
        let f = &mut self.fields;
        let name = Knob::name;
        if mode != Mode::GroupBeam {
            f.remove(name(Knob::NumBeamGroups));
            f.remove(name(Knob::DiversityPenalty));
        }
        if !matches!(mode, Mode::Greedy | Mode::Sample) {
            f.remove(name(Knob::DolaLayers));
        }
        if mode != Mode::ConstrainedBeam {
            f.remove(name(Knob::ForceWordsIds));
        }
        match mode {
            Mode::Greedy => {
                f.remove(name(Knob::DoSample));
                f.remove(name(Knob::NumBeams));
                f.remove(name(Knob::PenaltyAlpha));
            }
            Mode::Sample => {
                f.insert(name(Knob::DoSample).into(), true.into());
                f.remove(name(Knob::NumBeams));
                f.remove(name(Knob::PenaltyAlpha));
            }
            // Constrained search is entered by giving `force_words_ids`; here it
            // keeps them and sets up the beams they need.
            Mode::Beam | Mode::BeamSample | Mode::ConstrainedBeam => {
                if mode == Mode::BeamSample {
                    f.insert(name(Knob::DoSample).into(), true.into());
                } else {
                    f.remove(name(Knob::DoSample));
                }
                f.remove(name(Knob::PenaltyAlpha));
                if f.get(name(Knob::NumBeams))
                    .and_then(Value::as_i64)
                    .unwrap_or(1)
                    < 2
                {
                    f.insert(name(Knob::NumBeams).into(), 4.into());
                }
            }
            Mode::GroupBeam => {
                f.remove(name(Knob::DoSample));
                f.remove(name(Knob::PenaltyAlpha));
                // Two groups of two unless the lane already has an even beam count.
                let beams = f
                    .get(name(Knob::NumBeams))
                    .and_then(Value::as_i64)
                    .unwrap_or(1);
                if beams < 2 || beams % 2 != 0 {
                    f.insert(name(Knob::NumBeams).into(), 4.into());
                }
                f.insert(name(Knob::NumBeamGroups).into(), 2.into());
                if !f.contains_key(name(Knob::DiversityPenalty)) {
                    f.insert(name(Knob::DiversityPenalty).into(), 1.0.into());
                }
            }
            Mode::Contrastive => {
                f.remove(name(Knob::DoSample));
                f.remove(name(Knob::NumBeams));
                f.insert(name(Knob::PenaltyAlpha).into(), 0.6.into());
                f.insert(name(Knob::TopK).into(), 4.into());
            }
            Mode::LlamaCpp => {}
        }
        // The mode knobs are valid values; the fields stay as they were if not.
        if let Ok(c) = GenerationConfig::from_value(Value::Object(self.fields.clone())) {
            self.parsed = Parsed::Transformers(c);
        }
    }
}
