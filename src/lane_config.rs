//! A lane's configuration as the user edits it: only the fields they set (so a
//! lane's JSON is its HF `generation_config` diff), typed text per knob, and
//! validation through the decoding crate — never re-implemented here. The
//! parsed config is kept beside the fields, so rendering never re-parses.

use ntl_decoding::llama_cpp::{LlamaCppConfig, LlamaKnob};
use ntl_decoding::{ConfigError, GenerationConfig, Knob, Mode, Semantics, ValidConfig};
use serde_json::{Map, Value};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct LaneConfig {
    /// The fields as set, by name (HF's, or llama-server's after
    /// `"semantics": "llama.cpp"`).
    fields: Map<String, Value>,
    /// The same fields parsed (the ecosystem's defaults for the rest); always in step.
    parsed: Parsed,
}

/// llama.cpp lanes' knobs in the editor, under headings of their own.
pub const LLAMA_GROUPS: &[(&str, &[LlamaKnob])] = &[
    (
        "sampler chain",
        &[
            LlamaKnob::Temperature,
            LlamaKnob::TopK,
            LlamaKnob::TopP,
            LlamaKnob::MinP,
            LlamaKnob::TypicalP,
            LlamaKnob::TopNSigma,
            LlamaKnob::XtcProbability,
            LlamaKnob::XtcThreshold,
            LlamaKnob::DynatempRange,
            LlamaKnob::DynatempExponent,
            LlamaKnob::MinKeep,
            LlamaKnob::Samplers,
            LlamaKnob::Seed,
        ],
    ),
    (
        "penalties",
        &[
            LlamaKnob::RepeatPenalty,
            LlamaKnob::RepeatLastN,
            LlamaKnob::PresencePenalty,
            LlamaKnob::FrequencyPenalty,
            LlamaKnob::DryMultiplier,
            LlamaKnob::DryBase,
            LlamaKnob::DryAllowedLength,
            LlamaKnob::DryPenaltyLastN,
            LlamaKnob::DrySequenceBreakers,
        ],
    ),
    (
        "mirostat, adaptive-p",
        &[
            LlamaKnob::Mirostat,
            LlamaKnob::MirostatTau,
            LlamaKnob::MirostatEta,
            LlamaKnob::AdaptiveTarget,
            LlamaKnob::AdaptiveDecay,
        ],
    ),
    (
        "length, stop, tokens",
        &[
            LlamaKnob::NPredict,
            LlamaKnob::Stop,
            LlamaKnob::IgnoreEos,
            LlamaKnob::LogitBias,
        ],
    ),
];

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

/// Knobs shown for every mode, then per mode.
pub const COMMON_KNOBS: &[Knob] = &[
    Knob::MaxNewTokens,
    Knob::MinNewTokens,
    Knob::RepetitionPenalty,
    Knob::NoRepeatNgramSize,
    Knob::FrequencyPenalty,
    Knob::PresencePenalty,
    Knob::EosTokenId,
    Knob::StopStrings,
];
/// Sampling's own knobs besides the warpers (`Knob::WARPERS`).
pub const SAMPLE_KNOBS: &[Knob] = &[Knob::Seed, Knob::NumReturnSequences];
pub const BEAM_KNOBS: &[Knob] = &[
    Knob::NumBeams,
    Knob::ForceWordsIds,
    Knob::LengthPenalty,
    Knob::EarlyStopping,
    Knob::NumReturnSequences,
];
pub const GROUP_BEAM_KNOBS: &[Knob] = &[
    Knob::NumBeams,
    Knob::NumBeamGroups,
    Knob::DiversityPenalty,
    Knob::LengthPenalty,
    Knob::EarlyStopping,
    Knob::NumReturnSequences,
];
/// DoLa rides on greedy decoding and sampling.
pub const DOLA_KNOBS: &[Knob] = &[Knob::DolaLayers];
pub const CONTRASTIVE_KNOBS: &[Knob] = &[Knob::PenaltyAlpha, Knob::TopK];
/// Token-level rules, every mode: folded in the editor until one is set.
pub const TOKEN_KNOBS: &[Knob] = &[
    Knob::BadWordsIds,
    Knob::SequenceBias,
    Knob::SuppressTokens,
    Knob::BeginSuppressTokens,
    Knob::ForcedBosTokenId,
    Knob::ForcedEosTokenId,
    Knob::ExponentialDecayLengthPenalty,
    Knob::RenormalizeLogits,
    Knob::RemoveInvalidValues,
    Knob::WatermarkingConfig,
    Knob::GuidanceScale,
];

pub fn knobs_for(mode: Mode) -> Vec<Knob> {
    let specific: &[&[Knob]] = match mode {
        Mode::Greedy => &[DOLA_KNOBS],
        Mode::Sample => &[Knob::WARPERS, SAMPLE_KNOBS, DOLA_KNOBS],
        Mode::Beam => &[BEAM_KNOBS],
        Mode::BeamSample => &[Knob::WARPERS, &[Knob::Seed], BEAM_KNOBS],
        Mode::GroupBeam => &[GROUP_BEAM_KNOBS],
        Mode::ConstrainedBeam => &[BEAM_KNOBS],
        Mode::Contrastive => &[CONTRASTIVE_KNOBS],
        // A llama.cpp lane's knobs are llama-server's ([`LLAMA_GROUPS`]).
        Mode::LlamaCpp => &[],
    };
    specific
        .iter()
        .copied()
        .flatten()
        .chain(COMMON_KNOBS)
        .copied()
        .collect()
}

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
                    k.parse::<LlamaKnob>().is_ok()
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

    pub fn llama(&self) -> Option<&LlamaCppConfig> {
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
                let greedy = self.llama().is_some_and(|c| c.temperature <= 0.0);
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
    pub fn llama_default_text(knob: LlamaKnob) -> String {
        let d = serde_json::to_value(LlamaCppConfig::default()).expect("serialises");
        match (knob, d.get(knob.name())) {
            (LlamaKnob::NPredict, _) => "-1 (until the context is full)".into(),
            (LlamaKnob::Seed, _) => "-1 (random)".into(),
            (LlamaKnob::Samplers, _) => ntl_decoding::llama_cpp::SamplerName::DEFAULT_ORDER
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(", "),
            (_, Some(Value::Null) | None) => "off".into(),
            (_, Some(v)) => v.to_string(),
        }
    }

    /// Sets a llama.cpp knob from what the user typed (a llama.cpp lane only).
    pub fn set_llama(&mut self, knob: LlamaKnob, text: &str) -> Result<(), ConfigError> {
        let t = text.trim();
        let mut probe = self.fields.clone();
        if t.is_empty() {
            probe.remove(knob.name());
        } else {
            let value = match knob {
                LlamaKnob::Stop if !t.starts_with('[') && !t.starts_with('"') => {
                    Value::String(text.to_string())
                }
                // "top_k, temperature" typed as a list of names.
                LlamaKnob::Samplers if !t.starts_with('[') && !t.starts_with('"') => Value::Array(
                    t.split(|c: char| c == ',' || c.is_whitespace())
                        .filter(|n| !n.is_empty())
                        .map(|n| Value::String(n.to_string()))
                        .collect(),
                ),
                _ => serde_json::from_str::<Value>(t).map_err(|_| ConfigError::Llama {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values_become_hf_fields_and_empty_resets() {
        let mut c = LaneConfig::default();
        c.set(Knob::Temperature, "0.7").unwrap();
        c.set(Knob::StopStrings, ".").unwrap();
        // Keys come out sorted, so a lane's JSON is stable however it was edited.
        assert_eq!(
            c.to_json(),
            "{\n  \"stop_strings\": \".\",\n  \"temperature\": 0.7\n}"
        );
        assert_eq!(c.hf().unwrap().temperature, 0.7);
        c.set(Knob::Temperature, "").unwrap();
        assert!(c.fields().get("temperature").is_none());
        assert_eq!(
            c.hf().unwrap().temperature,
            1.0,
            "the parsed config follows the fields"
        );
    }

    #[test]
    fn a_bad_value_names_its_field_and_changes_nothing() {
        let mut c = LaneConfig::default();
        let e = c.set(Knob::TopK, "many").unwrap_err();
        assert_eq!(e.field(), Some("top_k"));
        assert!(c.fields().is_empty());
        let e = c.set(Knob::TopK, "\"ten\"").unwrap_err();
        assert_eq!(e.knob(), Some(Knob::TopK));
        assert_eq!(c, LaneConfig::default());
    }

    #[test]
    fn dola_layers_take_low_and_high_without_quotes_and_lists_as_json() {
        let mut c = LaneConfig::default();
        c.set(Knob::DolaLayers, "high").unwrap();
        assert_eq!(c.text(Knob::DolaLayers), "high");
        assert!(c.validate().unwrap().dola_layers.is_some());
        c.set(Knob::DolaLayers, "[0, 2]").unwrap();
        assert_eq!(c.text(Knob::DolaLayers), "[0,2]");
        assert!(c.set(Knob::DolaLayers, "middle").is_err());
        assert!(knobs_for(Mode::Greedy).contains(&Knob::DolaLayers));
        c.set_mode(Mode::Beam);
        assert!(
            c.fields().get("dola_layers").is_none(),
            "DoLa does not ride on beams"
        );
    }

    #[test]
    fn mode_switches_set_the_knobs_hf_reads() {
        let mut c = LaneConfig::default();
        c.set_mode(Mode::Contrastive);
        assert_eq!(c.mode(), Mode::Contrastive);
        c.set_mode(Mode::Beam);
        assert_eq!(c.mode(), Mode::Beam);
        c.set_mode(Mode::GroupBeam);
        assert_eq!(c.mode(), Mode::GroupBeam);
        assert!(c.validate().is_ok(), "two groups of two, a penalty of 1");
        c.set_mode(Mode::Beam);
        assert_eq!(c.mode(), Mode::Beam);
        assert!(c.fields().get("num_beam_groups").is_none());
        assert!(c.fields().get("diversity_penalty").is_none());
        c.set_mode(Mode::BeamSample);
        assert_eq!(c.mode(), Mode::BeamSample);
        assert!(c.validate().is_ok(), "HF's beam sampling runs");
        assert_eq!(c.fields().get("do_sample"), Some(&true.into()));
        c.set_mode(Mode::Beam);
        assert_eq!(c.mode(), Mode::Beam, "back to beam search: do_sample goes");
        c.set_mode(Mode::Sample);
        assert_eq!(c.mode(), Mode::Sample);
        c.set_mode(Mode::Greedy);
        assert_eq!(c.mode(), Mode::Greedy);
    }

    #[test]
    fn a_folded_lane_reads_as_its_mode_and_the_knobs_set() {
        let c = LaneConfig::from_json(
            r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "seed": 1}"#,
        )
        .unwrap();
        assert_eq!(c.summary(), "sample · seed 1 · temperature 0.7 · top_p 0.9");
        assert_eq!(LaneConfig::default().summary(), "greedy");
        let c = LaneConfig::from_json(r#"{"stop_strings": ".", "num_beams": 4}"#).unwrap();
        assert_eq!(
            c.summary(),
            r#"beam search · num_beams 4 · stop_strings ".""#
        );
    }

    #[test]
    fn json_round_trips_and_ignores_bookkeeping_keys() {
        let c = LaneConfig::from_json(
            r#"{"do_sample": true, "top_p": 0.9, "transformers_version": "4.0"}"#,
        )
        .unwrap();
        assert_eq!(LaneConfig::from_json(&c.to_json()).unwrap(), c);
        assert_eq!(c.mode(), Mode::Sample);
        assert!(c.fields().get("transformers_version").is_none());
    }

    #[test]
    fn switching_ecosystem_carries_what_means_the_same_and_translates_the_rest() {
        let mut c = LaneConfig::from_json(
            r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9, "repetition_penalty": 1.2,
                "max_new_tokens": 30, "num_return_sequences": 2, "seed": 4}"#,
        )
        .unwrap();
        c.set_semantics(Semantics::LlamaCpp);
        assert_eq!(c.semantics(), Semantics::LlamaCpp);
        assert_eq!(c.mode(), Mode::LlamaCpp);
        let f = c.fields();
        assert_eq!(f["semantics"], "llama.cpp");
        assert_eq!(f["temperature"], 0.7);
        assert_eq!(f["top_p"], 0.9);
        assert_eq!(f["repeat_penalty"], 1.2, "renamed, not dropped");
        assert_eq!(f["n_predict"], 30);
        assert_eq!(f["seed"], 4);
        assert!(
            f.get("num_return_sequences").is_none(),
            "no such knob there"
        );
        assert!(c.validate().is_ok());
        c.set_semantics(Semantics::Transformers);
        assert_eq!(c.mode(), Mode::Sample);
        assert_eq!(c.fields()["repetition_penalty"], 1.2);
        assert_eq!(c.fields()["max_new_tokens"], 30);
    }

    #[test]
    fn greedy_becomes_temperature_zero_and_back() {
        let mut c = LaneConfig::from_json(r#"{"max_new_tokens": 12}"#).unwrap();
        c.set_semantics(Semantics::LlamaCpp);
        assert_eq!(c.fields()["temperature"], 0);
        c.set_semantics(Semantics::Transformers);
        assert_eq!(c.mode(), Mode::Greedy);
    }

    #[test]
    fn a_llama_lanes_knobs_take_llama_server_names_and_refuse_hf_ones() {
        let mut c = LaneConfig::default();
        c.set_semantics(Semantics::LlamaCpp);
        c.set_llama(LlamaKnob::RepeatLastN, "-1").unwrap();
        c.set_llama(LlamaKnob::Samplers, "top_k, temperature")
            .unwrap();
        assert_eq!(c.text_of("samplers"), r#"["top_k","temperature"]"#);
        // A JSON string is read as one: how a newline is typed.
        c.set_llama(LlamaKnob::Stop, r#""\n""#).unwrap();
        assert_eq!(c.fields()["stop"], "\n");
        let e = c.set_llama(LlamaKnob::TopK, "many").unwrap_err();
        assert_eq!(e.field(), Some("top_k"));
        assert_eq!(
            c.summary(),
            r#"llama.cpp · repeat_last_n -1 · samplers ["top_k","temperature"] · stop "\n" · temperature 0"#
        );
        assert_eq!(LaneConfig::llama_default_text(LlamaKnob::TopK), "40");
        let json = c.to_json();
        assert_eq!(
            LaneConfig::from_json(&json).unwrap(),
            c,
            "its JSON reads back"
        );
    }
}
