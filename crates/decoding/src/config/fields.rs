//! `GenerationConfig`: HF `generation_config.json` field names and HF
//! defaults, as a lane or a model file gives them. Read by [`super::intake`],
//! checked by [`super::validate`] into a [`super::ValidConfig`].

use crate::constraints::ForceWord;
use crate::dola::DolaLayers;
use crate::knob::Knob;
use crate::mode::Mode;
use crate::one_or_many::{Strings, TokenIds};
use crate::watermark::WatermarkConfig;
use serde::{Deserialize, Serialize};

/// HF's `early_stopping`: `true`, `false` or `"never"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EarlyStopping {
    #[default]
    Heuristic,
    Always,
    Never,
}

impl Serialize for EarlyStopping {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            EarlyStopping::Heuristic => s.serialize_bool(false),
            EarlyStopping::Always => s.serialize_bool(true),
            EarlyStopping::Never => s.serialize_str("never"),
        }
    }
}

impl<'de> Deserialize<'de> for EarlyStopping {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::Bool(false) => Ok(EarlyStopping::Heuristic),
            serde_json::Value::Bool(true) => Ok(EarlyStopping::Always),
            serde_json::Value::String(s) if s == "never" => Ok(EarlyStopping::Never),
            other => Err(serde::de::Error::custom(format!(
                "`early_stopping` must be true, false or \"never\", got {other}"
            ))),
        }
    }
}

/// The knobs, with HF names and HF defaults (transformers 5.x), plus `seed`
/// and the OpenAI-style `frequency_penalty` / `presence_penalty`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GenerationConfig {
    pub max_new_tokens: Option<i64>,
    pub max_length: Option<i64>,
    pub min_new_tokens: Option<i64>,
    pub min_length: i64,
    pub do_sample: bool,
    pub temperature: f64,
    pub top_k: Option<i64>,
    pub top_p: f64,
    pub min_p: Option<f64>,
    pub typical_p: f64,
    pub epsilon_cutoff: f64,
    pub eta_cutoff: f64,
    pub repetition_penalty: f64,
    pub no_repeat_ngram_size: i64,
    pub num_beams: i64,
    pub length_penalty: f64,
    pub early_stopping: EarlyStopping,
    pub num_return_sequences: i64,
    pub penalty_alpha: Option<f64>,
    pub eos_token_id: Option<TokenIds>,
    pub stop_strings: Option<Strings>,
    pub seed: Option<u64>,
    pub frequency_penalty: f64,
    pub presence_penalty: f64,
    pub top_h: Option<f64>,
    /// Token sequences never to generate (`[[ids], ...]`).
    pub bad_words_ids: Option<Vec<Vec<i64>>>,
    /// HF's list-of-pairs form: `[[[ids], bias], ...]`.
    pub sequence_bias: Option<Vec<(Vec<i64>, f64)>>,
    pub suppress_tokens: Option<Vec<i64>>,
    pub begin_suppress_tokens: Option<Vec<i64>>,
    pub forced_bos_token_id: Option<i64>,
    pub forced_eos_token_id: Option<TokenIds>,
    /// `[start_index, decay_factor]`.
    pub exponential_decay_length_penalty: Option<(i64, f64)>,
    pub renormalize_logits: bool,
    pub remove_invalid_values: bool,
    pub watermarking_config: Option<WatermarkConfig>,
    pub guidance_scale: Option<f64>,
    /// Diverse beam search (HF 4.55): groups of `num_beams / num_beam_groups`.
    pub num_beam_groups: i64,
    pub diversity_penalty: f64,
    /// DoLa (HF 4.55): `"low"`, `"high"` or a list of layers to contrast with.
    pub dola_layers: Option<DolaLayers>,
    /// Constrained beam search (HF 4.55): phrases, or choices of phrases, that
    /// must appear.
    pub force_words_ids: Option<Vec<ForceWord>>,
}

impl Default for GenerationConfig {
    fn default() -> Self {
        GenerationConfig {
            max_new_tokens: None,
            max_length: None,
            min_new_tokens: None,
            min_length: 0,
            do_sample: false,
            temperature: 1.0,
            top_k: Some(50),
            top_p: 1.0,
            min_p: None,
            typical_p: 1.0,
            epsilon_cutoff: 0.0,
            eta_cutoff: 0.0,
            repetition_penalty: 1.0,
            no_repeat_ngram_size: 0,
            num_beams: 1,
            length_penalty: 1.0,
            early_stopping: EarlyStopping::Heuristic,
            num_return_sequences: 1,
            penalty_alpha: None,
            eos_token_id: None,
            stop_strings: None,
            seed: None,
            frequency_penalty: 0.0,
            presence_penalty: 0.0,
            top_h: None,
            bad_words_ids: None,
            sequence_bias: None,
            suppress_tokens: None,
            begin_suppress_tokens: None,
            forced_bos_token_id: None,
            forced_eos_token_id: None,
            exponential_decay_length_penalty: None,
            renormalize_logits: false,
            remove_invalid_values: false,
            watermarking_config: None,
            guidance_scale: None,
            num_beam_groups: 1,
            diversity_penalty: 0.0,
            dola_layers: None,
            force_words_ids: None,
        }
    }
}

impl GenerationConfig {
    /// A number knob's value (`None`: not a number knob, or unset).
    pub fn number(&self, knob: Knob) -> Option<f64> {
        use Knob::*;
        let int = |v: i64| Some(v as f64);
        match knob {
            MaxNewTokens => self.max_new_tokens.and_then(int),
            MaxLength => self.max_length.and_then(int),
            MinNewTokens => self.min_new_tokens.and_then(int),
            MinLength => int(self.min_length),
            Temperature => Some(self.temperature),
            TopK => self.top_k.and_then(int),
            TopP => Some(self.top_p),
            MinP => self.min_p,
            TypicalP => Some(self.typical_p),
            EpsilonCutoff => Some(self.epsilon_cutoff),
            EtaCutoff => Some(self.eta_cutoff),
            RepetitionPenalty => Some(self.repetition_penalty),
            NoRepeatNgramSize => int(self.no_repeat_ngram_size),
            NumBeams => int(self.num_beams),
            LengthPenalty => Some(self.length_penalty),
            NumReturnSequences => int(self.num_return_sequences),
            PenaltyAlpha => self.penalty_alpha,
            FrequencyPenalty => Some(self.frequency_penalty),
            PresencePenalty => Some(self.presence_penalty),
            TopH => self.top_h,
            GuidanceScale => self.guidance_scale,
            NumBeamGroups => int(self.num_beam_groups),
            DiversityPenalty => Some(self.diversity_penalty),
            DoSample
            | EarlyStopping
            | EosTokenId
            | StopStrings
            | Seed
            | BadWordsIds
            | SequenceBias
            | SuppressTokens
            | BeginSuppressTokens
            | ForcedBosTokenId
            | ForcedEosTokenId
            | ExponentialDecayLengthPenalty
            | RenormalizeLogits
            | RemoveInvalidValues
            | WatermarkingConfig
            | DolaLayers
            | ForceWordsIds => None,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("config serialises")
    }

    /// HF's mode selection: beams and sampling pick the loop; `penalty_alpha > 0`
    /// with `top_k > 1` and no sampling selects contrastive search.
    pub fn mode(&self) -> Mode {
        let top_k = self.top_k.unwrap_or(0);
        if self.force_words_ids.is_some() {
            Mode::ConstrainedBeam
        } else if self.num_beams > 1 && self.num_beam_groups > 1 {
            Mode::GroupBeam
        } else if self.num_beams > 1 && self.do_sample {
            Mode::BeamSample
        } else if self.num_beams > 1 {
            Mode::Beam
        } else if self.do_sample {
            Mode::Sample
        } else if self.penalty_alpha.is_some_and(|a| a > 0.0) && top_k > 1 {
            Mode::Contrastive
        } else {
            Mode::Greedy
        }
    }
}
