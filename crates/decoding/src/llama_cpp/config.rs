//! A llama.cpp lane's knobs: llama-server's `/completion` names and defaults
//! (`common/common.h`, `tools/server/server-schema.cpp`), parsed and checked
//! once. Soft limits are clamped as llama-server clamps them; hard limits are
//! refused with the range, as it refuses them.

use serde::{Deserialize, Serialize};

pub use super::knob::LlamaCppKnob;
use super::knob_table::LLAMA_CPP_KNOBS;
use super::sampler::SamplerName;
use super::samplers::dry::{process_breakers, Breakers};
use crate::config::intake::first_key;
use crate::config_error::{closest_name, ConfigError};
use crate::config_rule::{LlamaCppRule, LogitBiasProblem};
use crate::one_or_many::Strings;
use crate::vocab::Vocab;
use std::sync::Arc;

/// `samplers`: a list of names, or llama.cpp's one-letter string (`"kfypmxt"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SamplerList {
    Names(Vec<String>),
    Letters(String),
}

/// llama-server's `/completion` sampling fields with its defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LlamaCppConfig {
    pub temperature: f64,
    pub dynatemp_range: f64,
    pub dynatemp_exponent: f64,
    pub top_k: i64,
    pub top_p: f64,
    pub min_p: f64,
    pub typical_p: f64,
    pub top_n_sigma: f64,
    pub xtc_probability: f64,
    pub xtc_threshold: f64,
    pub repeat_penalty: f64,
    /// `-1`: the whole context.
    pub repeat_last_n: i64,
    pub presence_penalty: f64,
    pub frequency_penalty: f64,
    pub dry_multiplier: f64,
    pub dry_base: f64,
    pub dry_allowed_length: i64,
    /// `-1`: the whole context.
    pub dry_penalty_last_n: i64,
    pub dry_sequence_breakers: Vec<String>,
    pub mirostat: i64,
    pub mirostat_tau: f64,
    pub mirostat_eta: f64,
    pub adaptive_target: f64,
    pub adaptive_decay: f64,
    pub min_keep: i64,
    /// `[[token, bias], ...]` or `{"token": bias}`; a token is an id or a
    /// text (its tokens), a bias a number or `false` (never).
    pub logit_bias: Option<serde_json::Value>,
    /// `-1`: until the context is full.
    pub n_predict: i64,
    pub stop: Option<Strings>,
    pub ignore_eos: bool,
    /// `-1`: llama.cpp draws a random seed; see [`LlamaCppSettings::seed`].
    pub seed: i64,
    pub samplers: Option<SamplerList>,
}

impl Default for LlamaCppConfig {
    fn default() -> Self {
        LlamaCppConfig {
            temperature: 0.8,
            dynatemp_range: 0.0,
            dynatemp_exponent: 1.0,
            top_k: 40,
            top_p: 0.95,
            min_p: 0.05,
            typical_p: 1.0,
            top_n_sigma: -1.0,
            xtc_probability: 0.0,
            xtc_threshold: 0.1,
            repeat_penalty: 1.0,
            repeat_last_n: 64,
            presence_penalty: 0.0,
            frequency_penalty: 0.0,
            dry_multiplier: 0.0,
            dry_base: 1.75,
            dry_allowed_length: 2,
            dry_penalty_last_n: 64,
            dry_sequence_breakers: ["\n", ":", "\"", "*"].map(String::from).to_vec(),
            mirostat: 0,
            mirostat_tau: 5.0,
            mirostat_eta: 0.1,
            adaptive_target: -1.0,
            adaptive_decay: 0.9,
            min_keep: 0,
            logit_bias: None,
            n_predict: -1,
            stop: None,
            ignore_eos: false,
            seed: -1,
            samplers: None,
        }
    }
}

/// How far back a penalty looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastN {
    Tokens(usize),
    /// `-1`: the whole context (the model's `n_positions`).
    Context,
}

impl LastN {
    pub fn resolve(self, n_ctx: usize) -> usize {
        match self {
            LastN::Tokens(n) => n,
            LastN::Context => n_ctx,
        }
    }
}

/// A `logit_bias` entry's token: an id, or a text whose tokens all get the bias.
#[derive(Debug, Clone, PartialEq)]
pub enum BiasToken {
    Id(u32),
    Text(String),
}

/// The seed llama.cpp treats as "draw one at random" (`LLAMA_DEFAULT_SEED`).
pub const RANDOM_SEED: u32 = u32::MAX;
/// `n_predict = -1` as a token budget: the context ends the lane first.
pub const UNTIL_CONTEXT_FULL: usize = 1 << 30;

/// A llama.cpp lane's knobs checked and in the types its samplers take
/// (`float`, `int32_t`), with the chain's order resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct LlamaCppSettings {
    pub source: LlamaCppConfig,
    pub temperature: f32,
    pub dynatemp_range: f32,
    pub dynatemp_exponent: f32,
    pub top_k: i32,
    pub top_p: f32,
    pub min_p: f32,
    pub typical_p: f32,
    pub top_n_sigma: f32,
    pub xtc_probability: f32,
    pub xtc_threshold: f32,
    pub repeat_penalty: f32,
    pub repeat_last_n: LastN,
    pub presence_penalty: f32,
    pub frequency_penalty: f32,
    pub dry_multiplier: f32,
    pub dry_base: f32,
    pub dry_allowed_length: usize,
    pub dry_penalty_last_n: LastN,
    pub mirostat: u8,
    pub mirostat_tau: f32,
    pub mirostat_eta: f32,
    pub adaptive_target: f32,
    pub adaptive_decay: f32,
    pub min_keep: usize,
    pub logit_bias: Vec<(BiasToken, f32)>,
    /// `None`: until the context is full.
    pub n_predict: Option<usize>,
    pub stop: Vec<String>,
    pub ignore_eos: bool,
    /// `-1` (llama.cpp: a random seed each run) is [`RANDOM_SEED`] used as a
    /// seed, so a run here repeats; give a seed to match a llama.cpp run.
    pub seed: u32,
    pub samplers: Vec<SamplerName>,
    /// `logit_bias` as token ids: texts are added by [`LlamaCppSettings::resolve`].
    pub bias_ids: Vec<(u32, f32)>,
    /// DRY's breakers prepared for the vocabulary, by [`LlamaCppSettings::resolve`].
    pub dry_breakers: Breakers,
}

fn invalid(knob: LlamaCppKnob, rule: LlamaCppRule) -> ConfigError {
    ConfigError::LlamaCpp { knob, rule }
}

/// `-1` for the whole context, else a count of tokens (in its limits already).
fn last_n(v: i64) -> LastN {
    match v {
        -1 => LastN::Context,
        _ => LastN::Tokens(v.max(0) as usize),
    }
}

impl LlamaCppConfig {
    /// Parses a lane config object (its `semantics` key already read).
    pub fn from_value(value: serde_json::Value) -> Result<LlamaCppConfig, ConfigError> {
        let serde_json::Value::Object(mut map) = value else {
            return Err(ConfigError::NotAnObject);
        };
        map.remove("semantics");
        // llama-server treats `null` as "use the default".
        map.retain(|_, v| !v.is_null());
        if let Some(key) = map.keys().find(|k| k.parse::<LlamaCppKnob>().is_err()) {
            return Err(ConfigError::LlamaCppUnknownField {
                field: key.clone(),
                suggestion: closest_llama_cpp_knob(key),
            });
        }
        serde_path_to_error::deserialize(serde_json::Value::Object(map)).map_err(|e| {
            match first_key(&e).and_then(|k| k.parse::<LlamaCppKnob>().ok()) {
                Some(knob) => ConfigError::LlamaCppBadValue {
                    knob,
                    source: Arc::new(e.into_inner()),
                },
                None => ConfigError::json(e.into_inner()),
            }
        })
    }

    /// The config as a lane's JSON: `semantics` first, then the fields that
    /// differ from llama-server's defaults.
    pub fn to_value(&self) -> serde_json::Value {
        let mut out = serde_json::Map::new();
        out.insert("semantics".into(), "llama.cpp".into());
        let defaults = serde_json::to_value(LlamaCppConfig::default()).expect("serialises");
        let me = serde_json::to_value(self).expect("serialises");
        for (k, v) in me.as_object().expect("object") {
            if defaults.get(k) != Some(v) && !v.is_null() {
                out.insert(k.clone(), v.clone());
            }
        }
        out.into()
    }

    /// A number knob's value (`None`: not a number knob).
    pub fn number(&self, knob: LlamaCppKnob) -> Option<f64> {
        use LlamaCppKnob::*;
        let c = self;
        Some(match knob {
            Temperature => c.temperature,
            DynatempRange => c.dynatemp_range,
            DynatempExponent => c.dynatemp_exponent,
            TopK => c.top_k as f64,
            TopP => c.top_p,
            MinP => c.min_p,
            TypicalP => c.typical_p,
            TopNSigma => c.top_n_sigma,
            XtcProbability => c.xtc_probability,
            XtcThreshold => c.xtc_threshold,
            RepeatPenalty => c.repeat_penalty,
            RepeatLastN => c.repeat_last_n as f64,
            PresencePenalty => c.presence_penalty,
            FrequencyPenalty => c.frequency_penalty,
            DryMultiplier => c.dry_multiplier,
            DryBase => c.dry_base,
            DryAllowedLength => c.dry_allowed_length as f64,
            DryPenaltyLastN => c.dry_penalty_last_n as f64,
            Mirostat => c.mirostat as f64,
            MirostatTau => c.mirostat_tau,
            MirostatEta => c.mirostat_eta,
            AdaptiveTarget => c.adaptive_target,
            AdaptiveDecay => c.adaptive_decay,
            MinKeep => c.min_keep as f64,
            NPredict => c.n_predict as f64,
            Seed => c.seed as f64,
            Semantics | DrySequenceBreakers | LogitBias | Stop | IgnoreEos | Samplers => {
                return None
            }
        })
    }

    pub fn validate(&self) -> Result<LlamaCppSettings, ConfigError> {
        let c = self;
        // llama-server's hard limits, as the knob table gives them.
        for row in LLAMA_CPP_KNOBS {
            if let (Some((min, max)), Some(got)) = (row.limits, c.number(row.knob)) {
                if !(min..=max).contains(&got) {
                    return Err(invalid(row.knob, LlamaCppRule::Between { min, max, got }));
                }
            }
        }
        let f = |v: f64| v as f32;
        let clamp = |v: f64, lo: f64, hi: f64| v.clamp(lo, hi) as f32;
        let samplers = match &c.samplers {
            None => SamplerName::DEFAULT_ORDER.to_vec(),
            Some(list) => sampler_list(list)?,
        };
        if samplers.contains(&SamplerName::Infill) {
            return Err(invalid(LlamaCppKnob::Samplers, LlamaCppRule::Infill));
        }
        let n_predict = match c.n_predict {
            -1 => None,
            0 => {
                return Err(invalid(
                    LlamaCppKnob::NPredict,
                    LlamaCppRule::NothingToPredict,
                ))
            }
            n => Some(n as usize),
        };
        let seed = match c.seed {
            -1 => RANDOM_SEED,
            s if (0..=u32::MAX as i64).contains(&s) => s as u32,
            s => return Err(invalid(LlamaCppKnob::Seed, LlamaCppRule::Seed(s))),
        };
        if c.repeat_penalty <= 0.0 {
            return Err(invalid(
                LlamaCppKnob::RepeatPenalty,
                LlamaCppRule::RepeatPenalty(c.repeat_penalty),
            ));
        }
        if c.dry_sequence_breakers.is_empty() {
            return Err(invalid(
                LlamaCppKnob::DrySequenceBreakers,
                LlamaCppRule::NoBreakers,
            ));
        }
        Ok(LlamaCppSettings {
            source: c.clone(),
            temperature: clamp(c.temperature, 0.0, f64::INFINITY),
            dynatemp_range: f(c.dynatemp_range),
            dynatemp_exponent: f(c.dynatemp_exponent),
            top_k: c.top_k.clamp(0, i32::MAX as i64) as i32,
            top_p: clamp(c.top_p, 0.0, 1.0),
            min_p: clamp(c.min_p, 0.0, 1.0),
            typical_p: f(c.typical_p),
            top_n_sigma: f(c.top_n_sigma),
            xtc_probability: clamp(c.xtc_probability, 0.0, 1.0),
            xtc_threshold: clamp(c.xtc_threshold, 0.0, 1.0),
            repeat_penalty: f(c.repeat_penalty),
            repeat_last_n: last_n(c.repeat_last_n),
            presence_penalty: f(c.presence_penalty),
            frequency_penalty: f(c.frequency_penalty),
            dry_multiplier: f(c.dry_multiplier),
            // llama-server: "values < 1.0 will be replaced with the default value".
            dry_base: if c.dry_base < 1.0 {
                1.75
            } else {
                f(c.dry_base)
            },
            dry_allowed_length: c.dry_allowed_length as usize,
            dry_penalty_last_n: last_n(c.dry_penalty_last_n),
            mirostat: c.mirostat.clamp(0, 2) as u8,
            mirostat_tau: f(c.mirostat_tau),
            mirostat_eta: f(c.mirostat_eta),
            adaptive_target: clamp(c.adaptive_target, -(f32::MAX as f64), 1.0),
            adaptive_decay: f(c.adaptive_decay),
            min_keep: c.min_keep as usize,
            logit_bias: logit_bias(c.logit_bias.as_ref())?,
            n_predict,
            stop: match &c.stop {
                None => vec![],
                Some(Strings::One(s)) => vec![s.clone()]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect(),
                Some(Strings::Many(v)) => v.iter().filter(|s| !s.is_empty()).cloned().collect(),
            },
            ignore_eos: c.ignore_eos,
            seed,
            samplers,
            bias_ids: vec![],
            dry_breakers: vec![],
        }
        .with_ids_only())
    }
}

impl LlamaCppSettings {
    fn with_ids_only(mut self) -> LlamaCppSettings {
        self.bias_ids = self
            .logit_bias
            .iter()
            .filter_map(|(t, b)| match t {
                BiasToken::Id(id) => Some((*id, *b)),
                BiasToken::Text(_) => None,
            })
            .collect();
        self
    }

    /// Tokenises what is given as text (`logit_bias` texts, as llama-server
    /// does: every token of the text gets the bias) and prepares DRY's
    /// breakers for this vocabulary.
    pub fn resolve(&mut self, vocab: &Vocab, encode: &dyn Fn(&str) -> Vec<u32>) {
        self.bias_ids = self
            .logit_bias
            .iter()
            .flat_map(|(t, b)| match t {
                BiasToken::Id(id) => vec![(*id, *b)],
                BiasToken::Text(text) => encode(text).into_iter().map(|id| (id, *b)).collect(),
            })
            .collect();
        if self.dry_multiplier != 0.0 {
            self.dry_breakers = process_breakers(vocab, &self.source.dry_sequence_breakers, encode);
        }
    }

    /// The token budget the decoding loop counts against.
    pub fn budget(&self) -> usize {
        self.n_predict.unwrap_or(UNTIL_CONTEXT_FULL)
    }

    /// llama.cpp's greedy: temperature at or below zero keeps the best logit.
    pub fn greedy(&self) -> bool {
        self.temperature <= 0.0
    }
}

fn sampler_list(list: &SamplerList) -> Result<Vec<SamplerName>, ConfigError> {
    match list {
        SamplerList::Names(names) => names
            .iter()
            .map(|n| {
                SamplerName::from_alias(&n.to_lowercase()).ok_or_else(|| {
                    invalid(
                        LlamaCppKnob::Samplers,
                        LlamaCppRule::UnknownSampler {
                            name: n.clone(),
                            hint: closest_sampler(n),
                        },
                    )
                })
            })
            .collect(),
        SamplerList::Letters(letters) => letters
            .chars()
            .filter_map(|ch| SamplerName::from_letter(ch).map(Ok))
            .collect(),
    }
}

fn closest_sampler(name: &str) -> Option<&'static str> {
    closest_name(name, SamplerName::listable().map(SamplerName::name))
}

/// The llama.cpp knob nearest to a misspelt one (an HF name gets its llama.cpp twin).
pub fn closest_llama_cpp_knob(field: &str) -> Option<LlamaCppKnob> {
    let twin = match field {
        "repetition_penalty" => Some(LlamaCppKnob::RepeatPenalty),
        "max_new_tokens" | "max_tokens" | "max_length" => Some(LlamaCppKnob::NPredict),
        "stop_strings" => Some(LlamaCppKnob::Stop),
        "do_sample" => Some(LlamaCppKnob::Temperature),
        _ => None,
    };
    twin.or_else(|| {
        closest_name(field, LlamaCppKnob::ALL.iter().map(|k| k.name())).and_then(|n| n.parse().ok())
    })
}

/// llama-server's two forms of `logit_bias`; entries it cannot read are
/// skipped there, refused here so a typo is seen.
fn logit_bias(v: Option<&serde_json::Value>) -> Result<Vec<(BiasToken, f32)>, ConfigError> {
    use serde_json::Value;
    let bad = |p: LogitBiasProblem| invalid(LlamaCppKnob::LogitBias, LlamaCppRule::LogitBias(p));
    let bias = |v: &Value| -> Result<f32, ConfigError> {
        match v {
            Value::Number(n) => Ok(n.as_f64().unwrap_or(0.0) as f32),
            Value::Bool(false) => Ok(f32::NEG_INFINITY),
            other => Err(bad(LogitBiasProblem::NotABias(other.to_string()))),
        }
    };
    let token = |v: &Value| -> Result<BiasToken, ConfigError> {
        match v {
            Value::Number(n) => n
                .as_u64()
                .filter(|&id| id <= u32::MAX as u64)
                .map(|id| BiasToken::Id(id as u32))
                .ok_or_else(|| bad(LogitBiasProblem::NotATokenId(n.to_string()))),
            Value::String(s) => Ok(s
                .parse::<u32>()
                .map(BiasToken::Id)
                .unwrap_or_else(|_| BiasToken::Text(s.clone()))),
            other => Err(bad(LogitBiasProblem::NotAToken(other.to_string()))),
        }
    };
    match v {
        None => Ok(vec![]),
        Some(Value::Array(entries)) => entries
            .iter()
            .map(|e| match e {
                Value::Array(pair) if pair.len() == 2 => Ok((token(&pair[0])?, bias(&pair[1])?)),
                other => Err(bad(LogitBiasProblem::NotAPair(other.to_string()))),
            })
            .collect(),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, b)| Ok((token(&Value::String(k.clone()))?, bias(b)?)))
            .collect(),
        Some(other) => Err(bad(LogitBiasProblem::NotListOrObject(other.to_string()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_are_llama_servers() {
        let s = LlamaCppConfig::default().validate().unwrap();
        assert_eq!(
            (s.temperature, s.top_k, s.top_p, s.min_p),
            (0.8, 40, 0.95, 0.05)
        );
        assert_eq!(s.repeat_last_n, LastN::Tokens(64));
        assert_eq!(s.samplers, SamplerName::DEFAULT_ORDER);
        assert_eq!(s.n_predict, None);
        assert_eq!(s.seed, RANDOM_SEED);
    }

    #[test]
    fn an_hf_name_in_a_llama_lane_points_at_its_llama_twin() {
        let e = LlamaCppConfig::from_value(json!({"repetition_penalty": 1.1})).unwrap_err();
        assert_eq!(e.field(), Some("repetition_penalty"));
        assert!(e.to_string().contains("repeat_penalty"), "{e}");
        let e = LlamaCppConfig::from_value(json!({"top_kk": 3})).unwrap_err();
        assert!(e.to_string().contains("top_k"), "{e}");
    }

    #[test]
    fn soft_limits_clamp_and_hard_limits_refuse() {
        let s = LlamaCppConfig::from_value(json!({"top_p": 1.5, "mirostat": 7}))
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!((s.top_p, s.mirostat), (1.0, 2));
        let e = LlamaCppConfig::from_value(json!({"min_keep": -2}))
            .unwrap()
            .validate()
            .unwrap_err();
        assert_eq!(e.field(), Some("min_keep"));
        let s = LlamaCppConfig::from_value(json!({"repeat_last_n": -1}))
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(s.repeat_last_n.resolve(1024), 1024);
    }

    #[test]
    fn samplers_read_names_letters_and_refuse_unknown_ones_with_a_hint() {
        let s = LlamaCppConfig::from_value(json!({"samplers": ["Top-K", "temp"]}))
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(s.samplers, [SamplerName::TopK, SamplerName::Temperature]);
        let s = LlamaCppConfig::from_value(json!({"samplers": "kt"}))
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(s.samplers, [SamplerName::TopK, SamplerName::Temperature]);
        let e = LlamaCppConfig::from_value(json!({"samplers": ["temprature"]}))
            .unwrap()
            .validate()
            .unwrap_err();
        assert!(e.to_string().contains("did you mean `temperature`"), "{e}");
    }

    #[test]
    fn logit_bias_takes_both_forms_and_false_means_never() {
        let s = LlamaCppConfig::from_value(json!({"logit_bias": [[15, 2.5], ["hello", false]]}))
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(s.logit_bias[0], (BiasToken::Id(15), 2.5));
        assert_eq!(
            s.logit_bias[1],
            (BiasToken::Text("hello".into()), f32::NEG_INFINITY)
        );
        let s = LlamaCppConfig::from_value(json!({"logit_bias": {"7": -1}}))
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(s.logit_bias, [(BiasToken::Id(7), -1.0)]);
    }

    #[test]
    fn only_changed_fields_travel() {
        let c = LlamaCppConfig::from_value(json!({"semantics": "llama.cpp", "top_k": 5})).unwrap();
        assert_eq!(c.to_value(), json!({"semantics": "llama.cpp", "top_k": 5}));
    }
}
