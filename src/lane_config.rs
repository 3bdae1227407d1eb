//! A lane's configuration as the user edits it: only the fields they set (so a
//! lane's JSON is its HF `generation_config` diff), typed text per knob, and
//! validation through the decoding crate — never re-implemented here. The
//! parsed config is kept beside the fields, so rendering never re-parses.

use ntl_decoding::{ConfigError, GenerationConfig, Knob, Mode, ValidConfig};
use serde_json::{Map, Value};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct LaneConfig {
    /// The fields as set, by HF name.
    fields: Map<String, Value>,
    /// The same fields parsed (HF defaults for the rest); always in step.
    config: GenerationConfig,
}

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
        Mode::GroupBeam => &[GROUP_BEAM_KNOBS],
        Mode::ConstrainedBeam => &[BEAM_KNOBS],
        Mode::Contrastive => &[CONTRASTIVE_KNOBS],
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
        let config = GenerationConfig::from_json(text)?;
        // The parser accepted it, so it is an object.
        let fields = serde_json::from_str(text).unwrap_or_default();
        Ok(LaneConfig::parsed(fields, config))
    }

    /// A lane from a share link's field map (already checked by the link decoder).
    pub fn from_fields(fields: Map<String, Value>) -> Result<LaneConfig, ConfigError> {
        let config = GenerationConfig::from_value(Value::Object(fields.clone()))?;
        Ok(LaneConfig::parsed(fields, config))
    }

    /// Keeps only the knobs among `fields` (the parser already dropped
    /// keys such as `transformers_version` from `config`).
    fn parsed(fields: Map<String, Value>, config: GenerationConfig) -> LaneConfig {
        let fields = fields
            .into_iter()
            .filter(|(k, _)| k.parse::<Knob>().is_ok())
            .collect();
        LaneConfig { fields, config }
    }

    pub fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }

    /// The lane's config as `generation_config.json` text (only what was set).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.fields).expect("serialises")
    }

    pub fn config(&self) -> &GenerationConfig {
        &self.config
    }

    pub fn validate(&self) -> Result<ValidConfig, ConfigError> {
        self.config.validate()
    }

    pub fn mode(&self) -> Mode {
        self.config.mode()
    }

    /// What a knob's input shows: the value set, else empty (the default is the placeholder).
    pub fn text(&self, knob: Knob) -> String {
        match self.fields.get(knob.name()) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) if matches!(knob, Knob::StopStrings | Knob::DolaLayers) => {
                s.clone()
            }
            Some(v) => v.to_string(),
        }
    }

    /// One line for a folded lane: the mode, then every knob set, by HF
    /// name ("sample · temperature 0.7 · top_p 0.9 · seed 1").
    pub fn summary(&self) -> String {
        let mode = match self.mode() {
            Mode::Greedy => "greedy",
            Mode::Sample => "sample",
            Mode::Beam => "beam search",
            Mode::GroupBeam => "diverse beam search",
            Mode::ConstrainedBeam => "constrained beam search",
            Mode::Contrastive => "contrastive",
        };
        // The knobs that choose the mode say nothing the mode does not.
        let implied = [Knob::DoSample.name()];
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

    /// Sets a knob from what the user typed; empty text means "back to the default".
    pub fn set(&mut self, knob: Knob, text: &str) -> Result<(), ConfigError> {
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
        self.config = GenerationConfig::from_value(Value::Object(probe.clone()))?;
        self.fields = probe;
        Ok(())
    }

    /// Switches the decoding mode by setting the knobs HF uses to choose it.
    pub fn set_mode(&mut self, mode: Mode) {
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
            Mode::Beam | Mode::ConstrainedBeam => {
                f.remove(name(Knob::DoSample));
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
        }
        self.config = GenerationConfig::from_value(Value::Object(self.fields.clone()))
            .expect("the mode knobs are valid values");
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
        assert_eq!(c.config().temperature, 0.7);
        c.set(Knob::Temperature, "").unwrap();
        assert!(c.fields().get("temperature").is_none());
        assert_eq!(
            c.config().temperature,
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
}
