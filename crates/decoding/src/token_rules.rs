//! The token-level knobs of HF `generate()` as checked ids: sequences never to
//! generate, biases on sequences, tokens suppressed always or at the first
//! step, tokens forced at the first or last position, and the eos boost of
//! `exponential_decay_length_penalty`.

use crate::config_error::ConfigError;
use crate::config_rule::Rule;
use crate::knob::Knob;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct TokenRules {
    pub bad_words_ids: Vec<Vec<u32>>,
    /// In the order given; a sequence given twice keeps its last bias (HF's dict).
    pub sequence_bias: Vec<(Vec<u32>, f32)>,
    pub suppress_tokens: Vec<u32>,
    pub begin_suppress_tokens: Vec<u32>,
    pub forced_bos_token_id: Option<u32>,
    pub forced_eos_token_ids: Vec<u32>,
    /// `(start_index, decay_factor)`.
    pub exponential_decay: Option<(usize, f64)>,
}

pub(crate) fn token_id(knob: Knob, id: i64) -> Result<u32, ConfigError> {
    u32::try_from(id).map_err(|_| ConfigError::invalid(knob, Rule::NotATokenId(id)))
}

pub(crate) fn ids(knob: Knob, v: &[i64]) -> Result<Vec<u32>, ConfigError> {
    v.iter().map(|&id| token_id(knob, id)).collect()
}

/// A list of sequences where each must hold at least one token.
pub(crate) fn sequences(knob: Knob, v: &[Vec<i64>]) -> Result<Vec<Vec<u32>>, ConfigError> {
    if v.is_empty() {
        return Err(ConfigError::invalid(knob, Rule::NoIdLists));
    }
    v.iter()
        .map(|seq| {
            if seq.is_empty() {
                return Err(ConfigError::invalid(knob, Rule::EmptyIdList));
            }
            ids(knob, seq)
        })
        .collect()
}

impl TokenRules {
    /// Every id these rules name, with its knob (to check against a vocabulary).
    pub fn named_ids(&self) -> impl Iterator<Item = (Knob, u32)> + '_ {
        self.bad_words_ids
            .iter()
            .flatten()
            .map(|&id| (Knob::BadWordsIds, id))
            .chain(
                self.sequence_bias
                    .iter()
                    .flat_map(|(s, _)| s.iter().map(|&id| (Knob::SequenceBias, id))),
            )
            .chain(
                self.suppress_tokens
                    .iter()
                    .map(|&id| (Knob::SuppressTokens, id)),
            )
            .chain(
                self.begin_suppress_tokens
                    .iter()
                    .map(|&id| (Knob::BeginSuppressTokens, id)),
            )
            .chain(
                self.forced_bos_token_id
                    .map(|id| (Knob::ForcedBosTokenId, id)),
            )
            .chain(
                self.forced_eos_token_ids
                    .iter()
                    .map(|&id| (Knob::ForcedEosTokenId, id)),
            )
    }
}
