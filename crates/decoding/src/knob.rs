//! The names that travel: every knob of a generation config, and every stage of
//! a step's filter funnel. Both serialise as HF's snake_case names, so the JSON
//! (runs, worker messages, exports, share links) reads as it always has.

use crate::llama_cpp::sampler::SamplerName;
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

/// A field of [`crate::GenerationConfig`]: HF's `generation_config` names,
/// plus `seed` and the OpenAI-style penalties.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    ::serde::Serialize,
    ::serde::Deserialize,
    ::strum::Display,
    ::strum::EnumString,
    ::strum::IntoStaticStr,
    ::strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Knob {
    MaxNewTokens,
    MaxLength,
    MinNewTokens,
    MinLength,
    DoSample,
    Temperature,
    TopK,
    TopP,
    MinP,
    TypicalP,
    EpsilonCutoff,
    EtaCutoff,
    RepetitionPenalty,
    NoRepeatNgramSize,
    NumBeams,
    LengthPenalty,
    EarlyStopping,
    NumReturnSequences,
    PenaltyAlpha,
    EosTokenId,
    StopStrings,
    Seed,
    FrequencyPenalty,
    PresencePenalty,
    TopH,
    BadWordsIds,
    SequenceBias,
    SuppressTokens,
    BeginSuppressTokens,
    ForcedBosTokenId,
    ForcedEosTokenId,
    ExponentialDecayLengthPenalty,
    RenormalizeLogits,
    RemoveInvalidValues,
    WatermarkingConfig,
    GuidanceScale,
    NumBeamGroups,
    DiversityPenalty,
    DolaLayers,
    ForceWordsIds,
}

impl Knob {
    /// Every name, in declaration order.
    pub const ALL: &'static [Knob] = <Knob as ::strum::VariantArray>::VARIANTS;

    /// The name as it travels (HF's, llama-server's or llama.cpp's spelling).
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// A name that is not one of a name enum's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a known name")]
pub struct UnknownName(pub String);

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
    LlamaCpp(SamplerName),
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Model => "model",
            Stage::Knob(k) => k.name(),
            Stage::FrequencyPresencePenalty => "frequency_presence_penalty",
            Stage::LlamaCpp(s) => s.stage_name(),
        }
    }

    /// The stage reshapes scores rather than removing tokens (so "it removed
    /// nothing" is no news about it).
    pub fn reshapes(self) -> bool {
        self.is_penalty()
            || matches!(
                self,
                Stage::LlamaCpp(
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
                | Stage::LlamaCpp(SamplerName::Penalties | SamplerName::Dry)
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
                .map(Stage::LlamaCpp)
                .map_err(|_| UnknownName(s.to_string())),
            knob => knob
                .parse()
                .map(Stage::Knob)
                .map_err(|_| UnknownName(s.to_string())),
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
            Stage::LlamaCpp(SamplerName::TopK),
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

#[cfg(test)]
mod name_tests {
    use super::*;
    use crate::llama_cpp::knob::LlamaCppKnob;

    /// The names as they were written before `strum` derived them: a name
    /// that travels in a link, an export or a lesson never changes.
    #[test]
    fn every_name_enum_keeps_its_names_in_serde_display_and_parse() {
        fn check<T>(all: &[T], expected: &[&str])
        where
            T: Copy + PartialEq + std::fmt::Debug + std::fmt::Display + serde::Serialize,
            T: std::str::FromStr + Into<&'static str>,
        {
            let names: Vec<&str> = all.iter().map(|&x| x.into()).collect();
            assert_eq!(names, expected);
            for &x in all {
                let name: &str = x.into();
                assert_eq!(serde_json::to_value(x).unwrap(), name);
                assert_eq!(x.to_string(), name);
                assert!(name.parse::<T>().ok() == Some(x), "{name}");
            }
        }
        check(
            Knob::ALL,
            &[
                "max_new_tokens",
                "max_length",
                "min_new_tokens",
                "min_length",
                "do_sample",
                "temperature",
                "top_k",
                "top_p",
                "min_p",
                "typical_p",
                "epsilon_cutoff",
                "eta_cutoff",
                "repetition_penalty",
                "no_repeat_ngram_size",
                "num_beams",
                "length_penalty",
                "early_stopping",
                "num_return_sequences",
                "penalty_alpha",
                "eos_token_id",
                "stop_strings",
                "seed",
                "frequency_penalty",
                "presence_penalty",
                "top_h",
                "bad_words_ids",
                "sequence_bias",
                "suppress_tokens",
                "begin_suppress_tokens",
                "forced_bos_token_id",
                "forced_eos_token_id",
                "exponential_decay_length_penalty",
                "renormalize_logits",
                "remove_invalid_values",
                "watermarking_config",
                "guidance_scale",
                "num_beam_groups",
                "diversity_penalty",
                "dola_layers",
                "force_words_ids",
            ],
        );
        check(
            LlamaCppKnob::ALL,
            &[
                "semantics",
                "temperature",
                "dynatemp_range",
                "dynatemp_exponent",
                "top_k",
                "top_p",
                "min_p",
                "typical_p",
                "top_n_sigma",
                "xtc_probability",
                "xtc_threshold",
                "repeat_penalty",
                "repeat_last_n",
                "presence_penalty",
                "frequency_penalty",
                "dry_multiplier",
                "dry_base",
                "dry_allowed_length",
                "dry_penalty_last_n",
                "dry_sequence_breakers",
                "mirostat",
                "mirostat_tau",
                "mirostat_eta",
                "adaptive_target",
                "adaptive_decay",
                "min_keep",
                "logit_bias",
                "n_predict",
                "stop",
                "ignore_eos",
                "seed",
                "samplers",
            ],
        );
        check(
            SamplerName::ALL,
            &[
                "penalties",
                "dry",
                "top_n_sigma",
                "top_k",
                "typ_p",
                "top_p",
                "min_p",
                "xtc",
                "temperature",
                "adaptive_p",
                "infill",
                "logit_bias",
                "dist",
                "mirostat",
                "mirostat_v2",
            ],
        );
    }
}
