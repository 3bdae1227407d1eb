//! The names that travel: every knob of a generation config, and every stage of
//! a step's filter funnel. Both serialise as HF's snake_case names, so the JSON
//! (runs, worker messages, exports, share links) reads as it always has.

use crate::llama_cpp::sampler::SamplerName;
use crate::names::names;
pub use crate::names::UnknownName;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

impl Knob {
    /// The sampling warpers, in the order HF applies them.
    pub const WARPERS: &'static [Knob] = &[
        Knob::Temperature,
        Knob::TopH,
        Knob::TopK,
        Knob::TopP,
        Knob::MinP,
        Knob::TypicalP,
        Knob::EpsilonCutoff,
        Knob::EtaCutoff,
    ];
}

names! {
    /// A field of [`crate::GenerationConfig`]: HF's `generation_config` names,
    /// plus `seed` and the OpenAI-style penalties.
    pub enum Knob {
        MaxNewTokens = "max_new_tokens",
        MaxLength = "max_length",
        MinNewTokens = "min_new_tokens",
        MinLength = "min_length",
        DoSample = "do_sample",
        Temperature = "temperature",
        TopK = "top_k",
        TopP = "top_p",
        MinP = "min_p",
        TypicalP = "typical_p",
        EpsilonCutoff = "epsilon_cutoff",
        EtaCutoff = "eta_cutoff",
        RepetitionPenalty = "repetition_penalty",
        NoRepeatNgramSize = "no_repeat_ngram_size",
        NumBeams = "num_beams",
        LengthPenalty = "length_penalty",
        EarlyStopping = "early_stopping",
        NumReturnSequences = "num_return_sequences",
        PenaltyAlpha = "penalty_alpha",
        EosTokenId = "eos_token_id",
        StopStrings = "stop_strings",
        Seed = "seed",
        FrequencyPenalty = "frequency_penalty",
        PresencePenalty = "presence_penalty",
        TopH = "top_h",
        BadWordsIds = "bad_words_ids",
        SequenceBias = "sequence_bias",
        SuppressTokens = "suppress_tokens",
        BeginSuppressTokens = "begin_suppress_tokens",
        ForcedBosTokenId = "forced_bos_token_id",
        ForcedEosTokenId = "forced_eos_token_id",
        ExponentialDecayLengthPenalty = "exponential_decay_length_penalty",
        RenormalizeLogits = "renormalize_logits",
        RemoveInvalidValues = "remove_invalid_values",
        WatermarkingConfig = "watermarking_config",
        GuidanceScale = "guidance_scale",
        NumBeamGroups = "num_beam_groups",
        DiversityPenalty = "diversity_penalty",
        DolaLayers = "dola_layers",
        ForceWordsIds = "force_words_ids",
    }
}

/// A stage of a step's filter funnel: the model's own distribution, then one
/// per logits processor, named (and serialised) as HF names the knob behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    Model,
    /// The processor of one knob (`min_new_tokens` also stands for `min_length`).
    Knob(Knob),
    /// `frequency_penalty` and `presence_penalty` together (one processor).
    FrequencyPresencePenalty,
    /// A llama.cpp sampler (a llama.cpp lane's chain), named `llama.cpp:<sampler>`.
    Llama(SamplerName),
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Model => "model",
            Stage::Knob(k) => k.name(),
            Stage::FrequencyPresencePenalty => "frequency_presence_penalty",
            Stage::Llama(s) => s.stage_name(),
        }
    }

    /// The stage reshapes scores rather than removing tokens (so "it removed
    /// nothing" is no news about it).
    pub fn reshapes(self) -> bool {
        self.is_penalty()
            || matches!(
                self,
                Stage::Llama(
                    SamplerName::Temperature | SamplerName::LogitBias | SamplerName::AdaptiveP
                )
            )
            || matches!(
                self,
                Stage::Knob(
                    Knob::Temperature
                        | Knob::SequenceBias
                        | Knob::ExponentialDecayLengthPenalty
                        | Knob::RemoveInvalidValues
                        | Knob::RenormalizeLogits
                        | Knob::WatermarkingConfig
                )
            )
    }

    /// A penalty on tokens already seen.
    pub fn is_penalty(self) -> bool {
        matches!(
            self,
            Stage::Knob(Knob::RepetitionPenalty)
                | Stage::FrequencyPresencePenalty
                | Stage::Llama(SamplerName::Penalties | SamplerName::Dry)
        )
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Stage {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        match s {
            "model" => Ok(Stage::Model),
            "frequency_presence_penalty" => Ok(Stage::FrequencyPresencePenalty),
            llama if llama.starts_with("llama.cpp:") => llama["llama.cpp:".len()..]
                .parse()
                .map(Stage::Llama)
                .map_err(|_| UnknownName(s.to_string())),
            knob => knob.parse().map(Stage::Knob),
        }
    }
}

impl Serialize for Stage {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Stage {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GenerationConfig;

    #[test]
    fn every_config_field_is_a_knob_and_every_knob_a_config_field() {
        let defaults = serde_json::to_value(GenerationConfig::default()).unwrap();
        let fields: Vec<&str> = defaults
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut knobs: Vec<&str> = Knob::ALL.iter().map(|k| k.name()).collect();
        let mut fields_sorted = fields.clone();
        fields_sorted.sort_unstable();
        knobs.sort_unstable();
        assert_eq!(knobs, fields_sorted);
    }

    #[test]
    fn names_read_back_and_serialise_as_hf_spells_them() {
        for &k in Knob::ALL {
            assert_eq!(k.name().parse::<Knob>(), Ok(k));
            assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{k}\""));
        }
        let stages = [
            Stage::Model,
            Stage::Knob(Knob::TopP),
            Stage::FrequencyPresencePenalty,
            Stage::Llama(SamplerName::TopK),
        ];
        for s in stages {
            assert_eq!(s.name().parse::<Stage>(), Ok(s));
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
            assert_eq!(
                serde_json::from_str::<Stage>(&format!("\"{s}\"")).unwrap(),
                s
            );
        }
        assert!(serde_json::from_str::<Stage>("\"top_q\"").is_err());
        assert!("temprature".parse::<Knob>().is_err());
    }
}
