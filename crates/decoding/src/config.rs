//! `GenerationConfig`: HF `generation_config.json` field names and HF defaults,
//! parsed and validated once at the boundary. Everything downstream takes a
//! [`ValidConfig`] and never re-checks.

use crate::config_error::closest_knob;
use crate::config_error::ConfigError;
use crate::constraints::{self, ForceWord, Forced};
pub use crate::dola::DolaLayers;
use crate::knob::Knob;
use crate::mode::Mode;
pub use crate::token_rules::TokenRules;
use crate::watermark::{Watermark, WatermarkConfig};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// `eos_token_id` may be one id or a list, as in HF.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TokenIds {
    One(i64),
    Many(Vec<i64>),
}

/// `stop_strings` may be one string or a list, as in HF.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Strings {
    One(String),
    Many(Vec<String>),
}

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

/// Keys of HF's `GenerationConfig` (5.24) that cannot change which tokens a
/// decoder-only model generates — bookkeeping, outputs, caching, compilation,
/// the encoder-decoder start token, the model's own bos; accepted and dropped
/// so real `generation_config.json` files load unchanged.
pub(crate) const IGNORED_KEYS: &[&str] = &[
    "_from_model_config",
    "transformers_version",
    "bos_token_id",
    "pad_token_id",
    "decoder_start_token_id",
    "use_cache",
    "output_scores",
    "output_logits",
    "return_dict_in_generate",
    "output_attentions",
    "output_hidden_states",
    "cache_implementation",
    "cache_config",
    "max_cache_len",
    "compile_config",
    "disable_compile",
    "prefill_chunk_size",
    "continuous_batching_config",
    "low_memory",
];

/// Keys of HF's `GenerationConfig` (5.24, and 4.55's strategies) that change
/// decoding there and are not applied here: refused by name, with why.
const UNSUPPORTED_KEYS: &[(&str, &str)] = &[
    (
        "constraints",
        "it holds Python `Constraint` objects; give the words as `force_words_ids`",
    ),
    ("token_healing", "token healing is not implemented"),
    (
        "max_time",
        "a wall-clock limit would make runs unrepeatable",
    ),
    (
        "encoder_repetition_penalty",
        "it acts on an encoder's input, and GPT-2 has no encoder",
    ),
    (
        "encoder_no_repeat_ngram_size",
        "it acts on an encoder's input, and GPT-2 has no encoder",
    ),
    (
        "prompt_lookup_num_tokens",
        "speculative decoding is not implemented",
    ),
    (
        "max_matching_ngram_size",
        "speculative decoding is not implemented",
    ),
    (
        "num_assistant_tokens",
        "speculative decoding is not implemented",
    ),
    (
        "num_assistant_tokens_schedule",
        "speculative decoding is not implemented",
    ),
    (
        "assistant_confidence_threshold",
        "speculative decoding is not implemented",
    ),
    (
        "assistant_early_exit",
        "speculative decoding is not implemented",
    ),
    (
        "assistant_lookbehind",
        "speculative decoding is not implemented",
    ),
    (
        "target_lookbehind",
        "speculative decoding is not implemented",
    ),
    (
        "assistant_ensemble_weight",
        "speculative decoding is not implemented",
    ),
    ("is_assistant", "speculative decoding is not implemented"),
    (
        "speculation_type",
        "speculative decoding is not implemented",
    ),
    ("use_mtp", "multi-token prediction is not implemented"),
];

/// HF's default when neither `max_new_tokens` nor `max_length` is given: 20 new tokens.
pub const DEFAULT_MAX_NEW_TOKENS: usize = 20;
/// More beams than this would make a four-lane page crawl; HF has no cap.
pub const MAX_BEAMS: usize = 16;
/// Samples per sampling lane (`num_return_sequences`), for the same reason.
pub const MAX_SAMPLES: usize = 8;

/// A config that passed validation, with every knob resolved to the value the
/// decoding loop uses. Built only by [`GenerationConfig::validate`].
#[derive(Debug, Clone, PartialEq)]
pub struct ValidConfig {
    pub source: GenerationConfig,
    pub mode: Mode,
    /// `None` means "20 new tokens, or `max_length` minus the prompt" (resolved per prompt).
    pub max_new_tokens: Option<usize>,
    pub max_length: Option<usize>,
    pub min_new_tokens: usize,
    pub min_length: usize,
    pub temperature: f32,
    pub top_k: usize,
    pub top_p: f32,
    pub min_p: Option<f32>,
    pub typical_p: f32,
    pub epsilon_cutoff: f32,
    pub eta_cutoff: f32,
    pub repetition_penalty: f32,
    pub no_repeat_ngram_size: usize,
    pub num_beams: usize,
    pub length_penalty: f32,
    pub early_stopping: EarlyStopping,
    pub num_return_sequences: usize,
    pub penalty_alpha: f32,
    /// Empty means "the model's eos"; filled in by [`ValidConfig::with_model_eos`].
    pub eos_token_ids: Vec<u32>,
    pub stop_strings: Vec<String>,
    pub seed: u64,
    pub frequency_penalty: f32,
    pub presence_penalty: f32,
    /// The token-level rules (bad words, biases, suppression, forcing), as ids.
    pub rules: TokenRules,
    pub watermark: Option<Arc<Watermark>>,
    /// 1 unless diverse beam search.
    pub num_beam_groups: usize,
    pub diversity_penalty: f32,
    /// DoLa's layers, for greedy and sampling lanes (HF ignores it elsewhere).
    pub dola_layers: Option<DolaLayers>,
    /// Constrained beam search's constraints (empty otherwise).
    pub force_words: Arc<[Forced]>,
    /// A llama.cpp lane's knobs (`mode` is then [`Mode::LlamaCpp`]).
    pub llama: Option<Arc<crate::llama_cpp::LlamaSettings>>,
}

impl GenerationConfig {
    /// Parses a JSON object in `generation_config.json` form; missing fields take HF defaults.
    pub fn from_json(text: &str) -> Result<GenerationConfig, ConfigError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(ConfigError::json)?;
        Self::from_value(value)
    }

    pub fn from_value(value: serde_json::Value) -> Result<GenerationConfig, ConfigError> {
        let serde_json::Value::Object(mut map) = value else {
            return Err(ConfigError::NotAnObject);
        };
        for key in IGNORED_KEYS {
            map.remove(*key);
        }
        if let Some(&(field, why)) = UNSUPPORTED_KEYS.iter().find(|(k, _)| map.contains_key(*k)) {
            return Err(ConfigError::Unsupported {
                field: field.into(),
                why,
            });
        }
        // Report the first bad field by name, so a typo points at itself.
        let mut knobs = Vec::with_capacity(map.len());
        for key in map.keys() {
            match key.parse::<Knob>() {
                Ok(knob) => knobs.push(knob),
                Err(_) => {
                    return Err(ConfigError::UnknownField {
                        field: key.clone(),
                        suggestion: closest_knob(key),
                    })
                }
            }
        }
        let defaults =
            serde_json::to_value(GenerationConfig::default()).expect("default config serialises");
        let known = defaults.as_object().expect("object");
        for (knob, (key, v)) in knobs.into_iter().zip(&map) {
            let mut probe = known.clone();
            probe.insert(key.clone(), v.clone());
            if let Err(e) =
                serde_json::from_value::<GenerationConfig>(serde_json::Value::Object(probe))
            {
                return Err(ConfigError::bad_value(knob, e));
            }
        }
        // Fields that read one by one read together; the error is not reached.
        serde_json::from_value(serde_json::Value::Object(map)).map_err(ConfigError::json)
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

    /// Checks every knob once, with HF's messages where HF has one.
    pub fn validate(&self) -> Result<ValidConfig, ConfigError> {
        let c = self;
        let mode = c.mode();
        let sampling = c.do_sample;
        let nonneg = |knob: Knob, v: Option<i64>| -> Result<Option<usize>, ConfigError> {
            match v {
                Some(n) if n < 0 => Err(ConfigError::invalid(
                    knob,
                    format!("`{knob}` must be a non-negative integer, but is {n}"),
                )),
                Some(n) => Ok(Some(n as usize)),
                None => Ok(None),
            }
        };
        for (knob, v) in [
            (Knob::Temperature, c.temperature),
            (Knob::TopP, c.top_p),
            (Knob::TypicalP, c.typical_p),
            (Knob::EpsilonCutoff, c.epsilon_cutoff),
            (Knob::EtaCutoff, c.eta_cutoff),
            (Knob::RepetitionPenalty, c.repetition_penalty),
            (Knob::LengthPenalty, c.length_penalty),
            (Knob::FrequencyPenalty, c.frequency_penalty),
            (Knob::PresencePenalty, c.presence_penalty),
        ] {
            if !v.is_finite() {
                let message = format!("`{knob}` must be a finite number, but is {v}");
                return Err(ConfigError::invalid(knob, message));
            }
        }

        let max_new_tokens = nonneg(Knob::MaxNewTokens, c.max_new_tokens)?;
        if max_new_tokens == Some(0) {
            return Err(ConfigError::invalid(
                Knob::MaxNewTokens,
                "`max_new_tokens` must be greater than 0, but is 0",
            ));
        }
        let max_length = nonneg(Knob::MaxLength, c.max_length)?;
        let min_new_tokens = nonneg(Knob::MinNewTokens, c.min_new_tokens)?.unwrap_or(0);
        let min_length = nonneg(Knob::MinLength, Some(c.min_length))?.unwrap_or(0);

        if c.num_beams < 1 {
            return Err(ConfigError::invalid(
                Knob::NumBeams,
                format!(
                    "`num_beams` has to be a strictly positive integer, but is {}",
                    c.num_beams
                ),
            ));
        }
        let num_beams = c.num_beams as usize;
        if num_beams > MAX_BEAMS {
            let message = format!(
                "`num_beams` is {num_beams}; this page allows at most {MAX_BEAMS} beams per lane"
            );
            return Err(ConfigError::invalid(Knob::NumBeams, message));
        }
        if c.num_return_sequences < 1 {
            return Err(ConfigError::invalid(
                Knob::NumReturnSequences,
                format!(
                    "`num_return_sequences` has to be a strictly positive integer, but is {}",
                    c.num_return_sequences
                ),
            ));
        }
        let num_return_sequences = c.num_return_sequences as usize;
        // Plain beam search samples (HF's beam sampling); diverse beam search cannot.
        if num_beams > 1 && c.num_beam_groups > 1 && sampling {
            return Err(ConfigError::invalid(
                Knob::DoSample,
                "Diverse beam search cannot be used in sampling mode. Make sure that \
                 `do_sample` is set to `False`.",
            ));
        }
        let num_beam_groups = diverse_groups(c, num_beams)?;
        let force_words: Arc<[Forced]> = match &c.force_words_ids {
            None => Arc::new([]),
            Some(words) => {
                let forced = constraints::check(words)
                    .map_err(|m| ConfigError::invalid(Knob::ForceWordsIds, m))?;
                constrained_checks(c, num_beams)?;
                forced.into()
            }
        };
        if mode.is_beam() {
            if num_return_sequences > num_beams {
                return Err(ConfigError::invalid(
                    Knob::NumReturnSequences,
                    "`num_return_sequences` has to be smaller or equal to `num_beams`.",
                ));
            }
        } else if num_return_sequences > 1 && !sampling {
            return Err(ConfigError::invalid(
                Knob::NumReturnSequences,
                format!(
                    "Greedy methods without beam search do not support `num_return_sequences` \
                     different than 1 (got {num_return_sequences})."
                ),
            ));
        } else if num_return_sequences > MAX_SAMPLES {
            let message = format!(
                "`num_return_sequences` is {num_return_sequences}; this page allows at most \
                 {MAX_SAMPLES} samples per lane"
            );
            return Err(ConfigError::invalid(Knob::NumReturnSequences, message));
        } else if num_return_sequences > 1 && c.guidance_scale.is_some_and(|g| g != 1.0) {
            return Err(ConfigError::invalid(
                Knob::NumReturnSequences,
                "`num_return_sequences` > 1 with `guidance_scale` is not supported here: one \
                 unconditional pass follows one sample",
            ));
        }

        if c.repetition_penalty <= 0.0 {
            return Err(ConfigError::invalid(
                Knob::RepetitionPenalty,
                format!(
                    "`penalty` has to be a strictly positive float, but is {}",
                    c.repetition_penalty
                ),
            ));
        }
        let no_repeat_ngram_size =
            nonneg(Knob::NoRepeatNgramSize, Some(c.no_repeat_ngram_size))?.unwrap_or(0);

        let top_k = match c.top_k {
            None => 0,
            Some(k) if k < 0 => {
                return Err(ConfigError::invalid(
                    Knob::TopK,
                    format!("`top_k` has to be a strictly positive integer, but is {k}"),
                ))
            }
            Some(k) => k as usize,
        };

        if let Some(a) = c.penalty_alpha {
            if !(0.0..=1.0).contains(&a) {
                return Err(ConfigError::invalid(
                    Knob::PenaltyAlpha,
                    format!("`penalty_alpha` has to be a float in the [0, 1] interval, but is {a}"),
                ));
            }
        }

        // Warper constraints are checked whether or not sampling is on: a knob that
        // is invalid is a mistake even when this mode ignores it.
        if sampling && c.temperature <= 0.0 {
            return Err(ConfigError::invalid(
                Knob::Temperature,
                format!(
                    "`temperature` (={}) has to be a strictly positive float, otherwise your next \
                     token scores will be invalid. If you're looking for greedy decoding \
                     strategies, set `do_sample=False`.",
                    c.temperature
                ),
            ));
        }
        if c.temperature < 0.0 {
            return Err(ConfigError::invalid(
                Knob::Temperature,
                format!(
                    "`temperature` must not be negative, but is {}",
                    c.temperature
                ),
            ));
        }
        if !(c.top_p > 0.0 && c.top_p <= 1.0) {
            return Err(ConfigError::invalid(
                Knob::TopP,
                format!("`top_p` has to be a float > 0 and <= 1, but is {}", c.top_p),
            ));
        }
        if let Some(p) = c.min_p {
            if !(0.0..=1.0).contains(&p) || !p.is_finite() {
                return Err(ConfigError::invalid(
                    Knob::MinP,
                    format!("`min_p` has to be a float in the [0, 1] interval, but is {p}"),
                ));
            }
        }
        if !(c.typical_p > 0.0 && c.typical_p <= 1.0) {
            return Err(ConfigError::invalid(
                Knob::TypicalP,
                format!(
                    "`typical_p` has to be a float > 0 and <= 1, but is {}",
                    c.typical_p
                ),
            ));
        }
        if !(0.0..1.0).contains(&c.epsilon_cutoff) {
            return Err(ConfigError::invalid(
                Knob::EpsilonCutoff,
                format!(
                    "`epsilon_cutoff` has to be a float > 0 and < 1, but is {}",
                    c.epsilon_cutoff
                ),
            ));
        }
        if !(0.0..1.0).contains(&c.eta_cutoff) {
            return Err(ConfigError::invalid(
                Knob::EtaCutoff,
                format!(
                    "`eta_cutoff` has to be a float > 0 and < 1, but is {}",
                    c.eta_cutoff
                ),
            ));
        }

        if let Some(g) = c.guidance_scale {
            if !g.is_finite() {
                return Err(ConfigError::invalid(
                    Knob::GuidanceScale,
                    format!("`guidance_scale` must be a finite number, but is {g}"),
                ));
            }
            if g != 1.0 && (mode.is_beam() || mode == Mode::Contrastive) {
                return Err(ConfigError::invalid(
                    Knob::GuidanceScale,
                    "`guidance_scale` works with greedy and sampling lanes here (HF's unbatched \
                     guidance follows one sequence, not beams or contrastive candidates)",
                ));
            }
        }
        if let Some(h) = c.top_h {
            if !(h > 0.0 && h <= 1.0) {
                return Err(ConfigError::invalid(
                    Knob::TopH,
                    format!("`top_h` must be in the range (0, 1], but is {h}"),
                ));
            }
        }

        let eos_token_ids = match &c.eos_token_id {
            None => vec![],
            Some(TokenIds::One(id)) => vec![token_id(Knob::EosTokenId, *id)?],
            Some(TokenIds::Many(ids)) => ids
                .iter()
                .map(|id| token_id(Knob::EosTokenId, *id))
                .collect::<Result<_, _>>()?,
        };
        let stop_strings = match &c.stop_strings {
            None => vec![],
            Some(Strings::One(s)) => vec![s.clone()],
            Some(Strings::Many(v)) => v.clone(),
        };
        if stop_strings.iter().any(String::is_empty) {
            return Err(ConfigError::invalid(
                Knob::StopStrings,
                "`stop_strings` must not contain an empty string",
            ));
        }

        Ok(ValidConfig {
            source: c.clone(),
            mode,
            max_new_tokens,
            max_length,
            min_new_tokens,
            min_length,
            temperature: c.temperature as f32,
            top_k,
            top_p: c.top_p as f32,
            min_p: c.min_p.map(|p| p as f32),
            typical_p: c.typical_p as f32,
            epsilon_cutoff: c.epsilon_cutoff as f32,
            eta_cutoff: c.eta_cutoff as f32,
            repetition_penalty: c.repetition_penalty as f32,
            no_repeat_ngram_size,
            num_beams,
            length_penalty: c.length_penalty as f32,
            early_stopping: c.early_stopping,
            num_return_sequences,
            penalty_alpha: c.penalty_alpha.unwrap_or(0.0) as f32,
            eos_token_ids,
            stop_strings,
            seed: c.seed.unwrap_or(0),
            frequency_penalty: c.frequency_penalty as f32,
            presence_penalty: c.presence_penalty as f32,
            rules: TokenRules::from_config(c)?,
            watermark: c
                .watermarking_config
                .clone()
                .map(|w| Watermark::new(w).map(Arc::new))
                .transpose()
                .map_err(|m| ConfigError::invalid(Knob::WatermarkingConfig, m))?,
            num_beam_groups,
            diversity_penalty: c.diversity_penalty as f32,
            force_words,
            dola_layers: match &c.dola_layers {
                Some(DolaLayers::List(v)) if v.is_empty() || v.iter().any(|&l| l < 0) => {
                    return Err(ConfigError::invalid(
                        Knob::DolaLayers,
                        "`dola_layers` must be \"low\", \"high\" or a non-empty list of layer \
                         indices from 0 (the embeddings)",
                    ))
                }
                Some(l) if matches!(mode, Mode::Greedy | Mode::Sample) => Some(l.clone()),
                _ => None,
            },
            llama: None,
        })
    }
}

impl ValidConfig {
    /// HF takes eos from the model's generation config when the user gives none.
    pub fn with_model_eos(mut self, model_eos: &[u32]) -> Self {
        if self.eos_token_ids.is_empty() && self.source.eos_token_id.is_none() {
            self.eos_token_ids = model_eos.to_vec();
        }
        self
    }

    /// New tokens allowed for a prompt of `prompt_len` tokens (HF's `_prepare_generated_length`).
    pub fn new_token_budget(&self, prompt_len: usize) -> usize {
        match (self.max_new_tokens, self.max_length) {
            (Some(n), _) => n,
            (None, Some(total)) => total.saturating_sub(prompt_len),
            (None, None) => DEFAULT_MAX_NEW_TOKENS,
        }
    }

    /// The minimum number of new tokens before eos may be chosen, from both
    /// `min_new_tokens` and `min_length` (which counts the prompt, as in HF).
    pub fn min_new_tokens_for(&self, prompt_len: usize) -> usize {
        self.min_new_tokens
            .max(self.min_length.saturating_sub(prompt_len))
    }

    /// Classifier-free guidance's scale, when it changes anything (HF adds
    /// the processor only for a scale other than 1).
    pub fn guidance_scale(&self) -> Option<f64> {
        self.source.guidance_scale.filter(|&g| g != 1.0)
    }

    pub fn is_sampling(&self) -> bool {
        self.mode.is_sampling()
    }

    /// The config as it ran: the user's fields plus the eos the model
    /// supplied (a llama.cpp lane's as given: its eos comes from the model).
    pub fn effective(&self) -> crate::LaneConfig {
        match &self.llama {
            Some(l) => crate::LaneConfig::LlamaCpp(l.source.clone()),
            None => crate::LaneConfig::Transformers(self.effective_hf()),
        }
    }

    fn effective_hf(&self) -> GenerationConfig {
        let mut c = self.source.clone();
        c.eos_token_id = match self.eos_token_ids.as_slice() {
            [] => None,
            [one] => Some(TokenIds::One(*one as i64)),
            many => Some(TokenIds::Many(many.iter().map(|&i| i as i64).collect())),
        };
        c
    }
}

/// Constrained beam search's checks (HF 4.55's `validate` and scorer).
fn constrained_checks(c: &GenerationConfig, num_beams: usize) -> Result<(), ConfigError> {
    let why = |knob: Knob, value: String| {
        ConfigError::invalid(
            knob,
            format!(
                "`force_words_ids` triggers constrained beam search. However, `{knob}` is set to \
                 `{value}`, which is incompatible with this generation mode."
            ),
        )
    };
    if c.do_sample {
        return Err(why(Knob::DoSample, "true".into()));
    }
    if c.num_beam_groups != 1 {
        return Err(why(Knob::NumBeamGroups, c.num_beam_groups.to_string()));
    }
    if num_beams < 2 {
        return Err(ConfigError::invalid(
            Knob::NumBeams,
            format!(
                "`num_beams` has to be an integer strictly greater than 1 for constrained beam \
                 search (`force_words_ids`), but is {num_beams}"
            ),
        ));
    }
    Ok(())
}

/// Diverse beam search's checks (HF 4.55's `validate` and `BeamSearchScorer`):
/// returns the number of groups.
fn diverse_groups(c: &GenerationConfig, num_beams: usize) -> Result<usize, ConfigError> {
    let groups = c.num_beam_groups;
    let penalty = c.diversity_penalty;
    if groups < 1 {
        return Err(ConfigError::invalid(
            Knob::NumBeamGroups,
            format!("`num_beam_groups` has to be a strictly positive integer, but is {groups}"),
        ));
    }
    if !penalty.is_finite() || penalty < 0.0 {
        return Err(ConfigError::invalid(
            Knob::DiversityPenalty,
            format!("`diversity_penalty` should be a float larger than 0.0, but is {penalty}"),
        ));
    }
    let groups = groups as usize;
    if num_beams == 1 {
        // HF warns and runs greedy or sampling; the warnings list says so.
        return Ok(1);
    }
    if groups > num_beams || !num_beams.is_multiple_of(groups) {
        return Err(ConfigError::invalid(
            Knob::NumBeamGroups,
            format!(
                "`num_beam_groups` has to be an integer smaller or equal than `num_beams` and \
                 `num_beams` has to be divisible by `num_beam_groups`, but is {groups} with \
                 `num_beams` being {num_beams}."
            ),
        ));
    }
    if groups > 1 && penalty == 0.0 {
        return Err(ConfigError::invalid(
            Knob::DiversityPenalty,
            "`diversity_penalty` should be greater than `0.0`, otherwise your groups will be \
             identical.",
        ));
    }
    if groups == 1 && penalty > 0.0 {
        return Err(ConfigError::invalid(
            Knob::NumBeamGroups,
            "`diversity_penalty` needs `num_beam_groups` > 1: the penalty acts on the tokens \
             earlier groups chose, and one group has none before it",
        ));
    }
    Ok(groups)
}

pub(crate) fn token_id(knob: Knob, id: i64) -> Result<u32, ConfigError> {
    u32::try_from(id).map_err(|_| {
        ConfigError::invalid(
            knob,
            format!("`{knob}` must hold non-negative token ids, but has {id}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field of HF's `GenerationConfig()` in transformers 5.24.
    const HF_5_24_FIELDS: &[&str] = &[
        "_from_model_config",
        "assistant_confidence_threshold",
        "assistant_early_exit",
        "assistant_ensemble_weight",
        "assistant_lookbehind",
        "bad_words_ids",
        "begin_suppress_tokens",
        "bos_token_id",
        "cache_config",
        "cache_implementation",
        "compile_config",
        "constraints",
        "continuous_batching_config",
        "decoder_start_token_id",
        "disable_compile",
        "diversity_penalty",
        "do_sample",
        "dola_layers",
        "early_stopping",
        "encoder_no_repeat_ngram_size",
        "encoder_repetition_penalty",
        "eos_token_id",
        "epsilon_cutoff",
        "eta_cutoff",
        "exponential_decay_length_penalty",
        "force_words_ids",
        "forced_bos_token_id",
        "forced_eos_token_id",
        "guidance_scale",
        "is_assistant",
        "length_penalty",
        "low_memory",
        "max_cache_len",
        "max_length",
        "max_matching_ngram_size",
        "max_new_tokens",
        "max_time",
        "min_length",
        "min_new_tokens",
        "min_p",
        "no_repeat_ngram_size",
        "num_assistant_tokens",
        "num_assistant_tokens_schedule",
        "num_beam_groups",
        "num_beams",
        "num_return_sequences",
        "output_attentions",
        "output_hidden_states",
        "output_logits",
        "output_scores",
        "pad_token_id",
        "penalty_alpha",
        "prefill_chunk_size",
        "prompt_lookup_num_tokens",
        "remove_invalid_values",
        "renormalize_logits",
        "repetition_penalty",
        "return_dict_in_generate",
        "sequence_bias",
        "speculation_type",
        "stop_strings",
        "suppress_tokens",
        "target_lookbehind",
        "temperature",
        "token_healing",
        "top_h",
        "top_k",
        "top_p",
        "transformers_version",
        "typical_p",
        "use_cache",
        "use_mtp",
        "watermarking_config",
    ];

    #[test]
    fn dola_layers_read_as_hf_writes_them_and_apply_to_greedy_and_sampling_only() {
        let v = |j: &str| GenerationConfig::from_json(j).unwrap().validate();
        assert_eq!(
            v(r#"{"dola_layers": "high"}"#).unwrap().dola_layers,
            Some(DolaLayers::Part(crate::dola::DolaPart::High))
        );
        assert_eq!(
            v(r#"{"dola_layers": [0, 2], "do_sample": true}"#)
                .unwrap()
                .dola_layers,
            Some(DolaLayers::List(vec![0, 2]))
        );
        // HF warns and runs the beam search without it.
        assert_eq!(
            v(r#"{"dola_layers": "low", "num_beams": 2}"#)
                .unwrap()
                .dola_layers,
            None
        );
        for bad in [r#"{"dola_layers": []}"#, r#"{"dola_layers": [-1]}"#] {
            assert_eq!(v(bad).unwrap_err().field(), Some("dola_layers"), "{bad}");
        }
        let e = GenerationConfig::from_json(r#"{"dola_layers": "middle"}"#).unwrap_err();
        assert_eq!(e.field(), Some("dola_layers"), "{e}");
    }

    #[test]
    fn force_words_select_constrained_beam_search_and_are_checked_as_hf_4_55_checks_them() {
        let v = |j: &str| GenerationConfig::from_json(j).unwrap().validate();
        let c = v(r#"{"num_beams": 3, "force_words_ids": [[5, 6], [[7], [8, 9]]]}"#).unwrap();
        assert_eq!((c.mode, c.force_words.len()), (Mode::ConstrainedBeam, 2));
        for (json, field) in [
            (r#"{"force_words_ids": [[5]]}"#, "num_beams"),
            (
                r#"{"num_beams": 2, "do_sample": true, "force_words_ids": [[5]]}"#,
                "do_sample",
            ),
            (
                r#"{"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 1, "force_words_ids": [[5]]}"#,
                "num_beam_groups",
            ),
            (
                r#"{"num_beams": 2, "force_words_ids": [[[5, 6], [5]]]}"#,
                "force_words_ids",
            ),
            (
                r#"{"num_beams": 2, "force_words_ids": [[]]}"#,
                "force_words_ids",
            ),
            (
                r#"{"num_beams": 2, "force_words_ids": []}"#,
                "force_words_ids",
            ),
            (
                r#"{"num_beams": 2, "force_words_ids": [[-3]]}"#,
                "force_words_ids",
            ),
        ] {
            assert_eq!(v(json).unwrap_err().field(), Some(field), "{json}");
        }
    }

    #[test]
    fn diverse_beam_search_is_checked_as_hf_4_55_checks_it() {
        let ok = |j: &str| GenerationConfig::from_json(j).unwrap().validate();
        let v = ok(r#"{"num_beams": 6, "num_beam_groups": 3, "diversity_penalty": 0.5}"#).unwrap();
        assert_eq!((v.mode, v.num_beam_groups), (Mode::GroupBeam, 3));
        for (json, field, words) in [
            (
                r#"{"num_beams": 4, "num_beam_groups": 3, "diversity_penalty": 1}"#,
                "num_beam_groups",
                "divisible",
            ),
            (
                r#"{"num_beams": 4, "num_beam_groups": 8, "diversity_penalty": 1}"#,
                "num_beam_groups",
                "smaller or equal",
            ),
            (
                r#"{"num_beams": 4, "num_beam_groups": 2}"#,
                "diversity_penalty",
                "identical",
            ),
            (
                r#"{"num_beams": 4, "diversity_penalty": 1}"#,
                "num_beam_groups",
                "num_beam_groups` > 1",
            ),
            (
                r#"{"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": -1}"#,
                "diversity_penalty",
                "larger than 0",
            ),
            (
                r#"{"num_beams": 4, "num_beam_groups": 0}"#,
                "num_beam_groups",
                "strictly positive",
            ),
            (
                r#"{"num_beams": 4, "num_beam_groups": 2, "diversity_penalty": 1, "do_sample": true}"#,
                "do_sample",
                "cannot be used in sampling mode",
            ),
        ] {
            let e = ok(json).unwrap_err();
            assert_eq!(e.field(), Some(field), "{json}: {e}");
            assert!(e.to_string().contains(words), "{json}: {e}");
        }
        // Without beams HF warns and decodes greedily; the warnings list says so.
        assert_eq!(
            ok(r#"{"num_beam_groups": 2, "diversity_penalty": 1}"#)
                .unwrap()
                .mode,
            Mode::Greedy
        );
    }

    #[test]
    fn every_hf_field_is_applied_refused_by_name_or_unable_to_change_decoding() {
        for field in HF_5_24_FIELDS {
            let applied = field.parse::<Knob>().is_ok();
            let ignored = IGNORED_KEYS.contains(field);
            let refused = UNSUPPORTED_KEYS.iter().any(|(k, _)| k == field);
            assert_eq!(
                [applied, ignored, refused].iter().filter(|&&b| b).count(),
                1,
                "`{field}`: applied {applied}, ignored {ignored}, refused {refused}"
            );
        }
    }

    #[test]
    fn a_knob_hf_applies_and_this_engine_does_not_is_refused_by_name() {
        let e = GenerationConfig::from_json(r#"{"num_beams": 4, "constraints": []}"#).unwrap_err();
        assert_eq!(e.field(), Some("constraints"));
        assert!(e.to_string().contains("force_words_ids"), "{e}");
        let e = GenerationConfig::from_json(r#"{"prompt_lookup_num_tokens": 3}"#).unwrap_err();
        assert!(matches!(e, ConfigError::Unsupported { .. }), "{e}");
        // What used to be accepted and dropped is now applied.
        let c = GenerationConfig::from_json(
            r#"{"renormalize_logits": true, "remove_invalid_values": true}"#,
        )
        .unwrap();
        assert!(c.renormalize_logits && c.remove_invalid_values);
    }

    #[test]
    fn token_rules_refuse_empty_lists_negative_ids_and_a_bad_decay() {
        let err = |j: &str| {
            GenerationConfig::from_json(j)
                .unwrap()
                .validate()
                .unwrap_err()
        };
        assert_eq!(
            err(r#"{"bad_words_ids": []}"#).knob(),
            Some(Knob::BadWordsIds)
        );
        assert_eq!(
            err(r#"{"bad_words_ids": [[1], []]}"#).knob(),
            Some(Knob::BadWordsIds)
        );
        assert_eq!(
            err(r#"{"suppress_tokens": [-1]}"#).knob(),
            Some(Knob::SuppressTokens)
        );
        assert_eq!(
            err(r#"{"exponential_decay_length_penalty": [-2, 1.5]}"#).knob(),
            Some(Knob::ExponentialDecayLengthPenalty)
        );
        assert_eq!(err(r#"{"top_h": 0}"#).knob(), Some(Knob::TopH));
        let ok = GenerationConfig::from_json(
            r#"{"sequence_bias": [[[10, 45], -2.0], [[64], 3]], "forced_eos_token_id": [1, 2]}"#,
        )
        .unwrap()
        .validate()
        .unwrap();
        assert_eq!(
            ok.rules.sequence_bias,
            vec![(vec![10, 45], -2.0), (vec![64], 3.0)]
        );
        assert_eq!(ok.rules.forced_eos_token_ids, vec![1, 2]);
        // A sequence_bias entry must be a pair of ids and a number.
        assert!(GenerationConfig::from_json(r#"{"sequence_bias": [[10, -2.0]]}"#).is_err());
    }

    #[test]
    fn defaults_are_hf_defaults() {
        let c = GenerationConfig::from_json("{}").unwrap();
        assert_eq!(c, GenerationConfig::default());
        let v = c.validate().unwrap();
        assert_eq!(v.mode, Mode::Greedy);
        assert_eq!(v.top_k, 50);
        assert_eq!(v.new_token_budget(7), 20);
        assert_eq!(
            v.clone().with_model_eos(&[50256]).eos_token_ids,
            vec![50256]
        );
    }

    #[test]
    fn sampling_with_zero_temperature_is_rejected_with_hf_message() {
        let e = GenerationConfig::from_json(r#"{"do_sample": true, "temperature": 0}"#)
            .unwrap()
            .validate()
            .unwrap_err();
        assert_eq!(e.field(), Some("temperature"));
        assert!(
            e.to_string()
                .contains("has to be a strictly positive float"),
            "{}",
            e.to_string()
        );
    }

    #[test]
    fn greedy_with_several_return_sequences_is_an_error() {
        let e = GenerationConfig::from_json(r#"{"num_return_sequences": 2}"#)
            .unwrap()
            .validate()
            .unwrap_err();
        assert!(
            e.to_string().contains("Greedy methods without beam search"),
            "{}",
            e.to_string()
        );
    }

    #[test]
    fn more_return_sequences_than_beams_is_an_error() {
        let e = GenerationConfig::from_json(r#"{"num_beams": 2, "num_return_sequences": 3}"#)
            .unwrap()
            .validate()
            .unwrap_err();
        assert_eq!(e.field(), Some("num_return_sequences"));
    }

    #[test]
    fn typo_names_the_field_and_suggests_the_right_one() {
        let e = GenerationConfig::from_json(r#"{"temprature": 0.7}"#).unwrap_err();
        assert_eq!(e.field(), Some("temprature"));
        assert!(
            e.to_string().contains("did you mean `temperature`"),
            "{}",
            e.to_string()
        );
    }

    #[test]
    fn wrong_type_names_the_field() {
        let e = GenerationConfig::from_json(r#"{"top_k": "fifty"}"#).unwrap_err();
        assert_eq!(e.field(), Some("top_k"));
        let e = GenerationConfig::from_json(r#"{"top_k": -3}"#)
            .unwrap()
            .validate()
            .unwrap_err();
        assert_eq!(e.field(), Some("top_k"));
    }

    #[test]
    fn top_p_outside_unit_interval_is_rejected() {
        for p in ["0", "1.5", "-0.1"] {
            let e = GenerationConfig::from_json(&format!(r#"{{"do_sample": true, "top_p": {p}}}"#))
                .unwrap()
                .validate()
                .unwrap_err();
            assert_eq!(e.field(), Some("top_p"), "top_p={p}");
        }
    }

    /// The knob rows of the bad-input matrix: each refused at the boundary with
    /// the field it concerns, never a panic later.
    #[test]
    fn bad_knobs_are_refused_by_field() {
        let cases: &[(&str, &str)] = &[
            (r#"{"do_sample": true, "temperature": -0.5}"#, "temperature"),
            (r#"{"do_sample": true, "temperature": 0}"#, "temperature"),
            (r#"{"do_sample": true, "top_p": 0}"#, "top_p"),
            (r#"{"do_sample": true, "top_p": 1.01}"#, "top_p"),
            (r#"{"top_k": -1}"#, "top_k"),
            (r#"{"num_beams": 0}"#, "num_beams"),
            (r#"{"num_beams": 100000}"#, "num_beams"),
            (
                r#"{"num_beams": 2, "num_return_sequences": 3}"#,
                "num_return_sequences",
            ),
            (r#"{"temperature": "hot"}"#, "temperature"),
            (r#"{"temperature": null}"#, "temperature"),
            (r#"{"top_k": "NaN"}"#, "top_k"),
            (r#"{"max_new_tokens": -5}"#, "max_new_tokens"),
            (r#"{"max_new_tokens": 1e30}"#, "max_new_tokens"),
            (r#"{"repetition_penalty": 0}"#, "repetition_penalty"),
            (r#"{"no_repeat_ngram_size": -2}"#, "no_repeat_ngram_size"),
            (r#"{"eos_token_id": "."}"#, "eos_token_id"),
        ];
        for (json, field) in cases {
            let e = GenerationConfig::from_json(json)
                .and_then(|c| c.validate().map(|_| c))
                .expect_err(json);
            assert_eq!(e.field(), Some(*field), "{json}: {e}");
            assert!(!e.to_string().is_empty());
        }
        // JSON has no NaN; a literal one is a parse error with a message, not a panic.
        assert!(GenerationConfig::from_json(r#"{"temperature": NaN}"#)
            .unwrap_err()
            .to_string()
            .contains("not valid JSON"));
        assert!(GenerationConfig::from_json("[1, 2]").is_err());
    }

    /// Found by fuzzing (generation_config target): a long decimal parsed one
    /// ULP off, so an exported config did not import back equal.
    #[test]
    fn configs_round_trip_exactly_through_json() {
        let text = r#"{"do_sample": true, "temperature": 888888888888888888888888888888888888888888888880.7, "top_p": 0, "eos_token_id": [13, 50256]}"#;
        let c = GenerationConfig::from_json(text).unwrap();
        assert_eq!(GenerationConfig::from_json(&c.to_json()).unwrap(), c);
        for t in [
            "0.1",
            "0.7000000000000001",
            "1e-300",
            "2.2250738585072014e-308",
        ] {
            let c = GenerationConfig::from_json(&format!(r#"{{"temperature": {t}}}"#)).unwrap();
            assert_eq!(GenerationConfig::from_json(&c.to_json()).unwrap(), c, "{t}");
        }
    }

    #[test]
    fn contradictory_settings_warn_but_run() {
        // Temperature with greedy: HF ignores it; we run and the page warns.
        let c = GenerationConfig::from_json(r#"{"temperature": 0.7, "top_p": 0.5}"#).unwrap();
        assert!(c.validate().is_ok());
        assert!(crate::warnings::config_warnings(&c)
            .iter()
            .any(|w| w.field == Knob::Temperature));
    }

    #[test]
    fn mode_selection_follows_hf() {
        let mode = |j: &str| GenerationConfig::from_json(j).unwrap().mode();
        assert_eq!(mode(r#"{"do_sample": true}"#), Mode::Sample);
        assert_eq!(mode(r#"{"num_beams": 4}"#), Mode::Beam);
        assert_eq!(
            mode(r#"{"penalty_alpha": 0.6, "top_k": 4}"#),
            Mode::Contrastive
        );
        assert_eq!(mode(r#"{"penalty_alpha": 0.6, "top_k": 1}"#), Mode::Greedy);
    }

    #[test]
    fn early_stopping_round_trips_all_three_forms() {
        for (json, want) in [
            ("false", EarlyStopping::Heuristic),
            ("true", EarlyStopping::Always),
            ("\"never\"", EarlyStopping::Never),
        ] {
            let c =
                GenerationConfig::from_json(&format!(r#"{{"early_stopping": {json}}}"#)).unwrap();
            assert_eq!(c.early_stopping, want);
            assert_eq!(GenerationConfig::from_json(&c.to_json()).unwrap(), c);
        }
    }

    #[test]
    fn real_generation_config_files_load() {
        let c = GenerationConfig::from_json(r#"{"_from_model_config": true, "bos_token_id": 50256, "eos_token_id": 50256, "transformers_version": "4.26.0.dev0"}"#).unwrap();
        assert_eq!(c.eos_token_id, Some(TokenIds::One(50256)));
    }

    #[test]
    fn max_length_counts_the_prompt() {
        let v = GenerationConfig::from_json(r#"{"max_length": 30}"#)
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(v.new_token_budget(7), 23);
        let v = GenerationConfig::from_json(r#"{"min_length": 10}"#)
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(v.min_new_tokens_for(7), 3);
    }
}
