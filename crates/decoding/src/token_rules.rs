//! The token-level knobs of HF `generate()` as checked ids: sequences never to
//! generate, biases on sequences, tokens suppressed always or at the first
//! step, tokens forced at the first or last position, and the eos boost of
//! `exponential_decay_length_penalty`.

use crate::config::{token_id, GenerationConfig, TokenIds};
use crate::config_error::ConfigError;
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

fn ids(knob: Knob, v: &[i64]) -> Result<Vec<u32>, ConfigError> {
    v.iter().map(|&id| token_id(knob, id)).collect()
}

/// A list of sequences where each must hold at least one token.
fn sequences(knob: Knob, v: &[Vec<i64>]) -> Result<Vec<Vec<u32>>, ConfigError> {
    if v.is_empty() {
        let message = format!("`{knob}` has to be a non-empty list of token-id lists");
        return Err(ConfigError::invalid(knob, message));
    }
    v.iter()
        .map(|seq| {
            if seq.is_empty() {
                let message = format!("`{knob}` must not hold an empty token-id list");
                return Err(ConfigError::invalid(knob, message));
            }
            ids(knob, seq)
        })
        .collect()
}

impl TokenRules {
    pub fn from_config(c: &GenerationConfig) -> Result<TokenRules, ConfigError> {
        let bad_words_ids = match &c.bad_words_ids {
            None => vec![],
            Some(v) => sequences(Knob::BadWordsIds, v)?,
        };
        let sequence_bias = match &c.sequence_bias {
            None => vec![],
            Some(v) => {
                let seqs: Vec<Vec<i64>> = v.iter().map(|(s, _)| s.clone()).collect();
                let seqs = sequences(Knob::SequenceBias, &seqs)?;
                let mut out = Vec::with_capacity(v.len());
                for (seq, &(_, bias)) in seqs.into_iter().zip(v) {
                    if bias.is_nan() {
                        let message = "`sequence_bias` biases must be numbers, not NaN";
                        return Err(ConfigError::invalid(Knob::SequenceBias, message));
                    }
                    out.push((seq, bias as f32));
                }
                out
            }
        };
        let exponential_decay = match c.exponential_decay_length_penalty {
            None => None,
            Some((start, factor)) => {
                let knob = Knob::ExponentialDecayLengthPenalty;
                if start < 0 || !factor.is_finite() || factor <= 0.0 {
                    let message = format!(
                        "`{knob}` is [start_index, decay_factor] with start_index >= 0 and a \
                         positive decay_factor, but is [{start}, {factor}]"
                    );
                    return Err(ConfigError::invalid(knob, message));
                }
                Some((start as usize, factor))
            }
        };
        let forced_eos_token_ids = match &c.forced_eos_token_id {
            None => vec![],
            Some(TokenIds::One(id)) => vec![token_id(Knob::ForcedEosTokenId, *id)?],
            Some(TokenIds::Many(v)) => ids(Knob::ForcedEosTokenId, v)?,
        };
        Ok(TokenRules {
            bad_words_ids,
            sequence_bias,
            suppress_tokens: ids(
                Knob::SuppressTokens,
                c.suppress_tokens.as_deref().unwrap_or(&[]),
            )?,
            begin_suppress_tokens: ids(
                Knob::BeginSuppressTokens,
                c.begin_suppress_tokens.as_deref().unwrap_or(&[]),
            )?,
            forced_bos_token_id: c
                .forced_bos_token_id
                .map(|id| token_id(Knob::ForcedBosTokenId, id))
                .transpose()?,
            forced_eos_token_ids,
            exponential_decay,
        })
    }

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
