//! Checking a config once, with HF's messages where HF has one.

use super::fields::GenerationConfig;
use super::valid::{ValidConfig, MAX_BEAMS, MAX_SAMPLES};
use crate::config_error::ConfigError;
use crate::config_rule::Rule;
use crate::constraints::{self, Forced};
use crate::dola::DolaLayers;
use crate::knob::Knob;
use crate::knob_table::HF_KNOBS;
use crate::mode::Mode;
use crate::one_or_many::{Strings, TokenIds};
use crate::token_rules::{ids, sequences, token_id, TokenRules};
use crate::watermark::Watermark;
use std::sync::Arc;

impl GenerationConfig {
    /// Checks every knob once, with HF's messages where HF has one.
    pub fn validate(&self) -> Result<ValidConfig, ConfigError> {
        let c = self;
        let mode = c.mode();
        let sampling = c.do_sample;
        // HF's sampling message first: a temperature of 0 is in range, and
        // wrong only for sampling.
        if sampling && c.temperature <= 0.0 {
            return Err(ConfigError::invalid(
                Knob::Temperature,
                Rule::SamplingNeedsTemperature(c.temperature),
            ));
        }
        // Every number knob in its range, as the knob table gives it.
        for info in HF_KNOBS {
            if let (Some(range), Some(value)) = (info.range, c.number(info.knob)) {
                if !range.contains(value) {
                    return Err(ConfigError::OutOfRange {
                        knob: info.knob,
                        value,
                    });
                }
            }
        }
        // In range, so none of these is negative.
        let count = |v: i64| v as usize;
        let max_new_tokens = c.max_new_tokens.map(count);
        let max_length = c.max_length.map(count);
        let min_new_tokens = c.min_new_tokens.map(count).unwrap_or(0);
        let min_length = count(c.min_length);
        let num_beams = count(c.num_beams);
        if num_beams > MAX_BEAMS {
            return Err(ConfigError::invalid(
                Knob::NumBeams,
                Rule::TooManyBeams {
                    asked: num_beams,
                    max: MAX_BEAMS,
                },
            ));
        }
        let num_return_sequences = count(c.num_return_sequences);
        // Plain beam search samples (HF's beam sampling); diverse beam search cannot.
        if num_beams > 1 && c.num_beam_groups > 1 && sampling {
            return Err(ConfigError::invalid(
                Knob::DoSample,
                Rule::DiverseBeamsCannotSample,
            ));
        }
        let num_beam_groups = diverse_groups(c, num_beams)?;
        let force_words: Arc<[Forced]> = match &c.force_words_ids {
            None => Arc::new([]),
            Some(words) => {
                let forced = constraints::check(words)?;
                constrained_checks(c, num_beams)?;
                forced.into()
            }
        };
        if mode.is_beam() {
            if num_return_sequences > num_beams {
                return Err(ConfigError::invalid(
                    Knob::NumReturnSequences,
                    Rule::MoreSequencesThanBeams,
                ));
            }
        } else if num_return_sequences > 1 && !sampling {
            return Err(ConfigError::invalid(
                Knob::NumReturnSequences,
                Rule::GreedyReturnsOne(num_return_sequences),
            ));
        } else if num_return_sequences > MAX_SAMPLES {
            return Err(ConfigError::invalid(
                Knob::NumReturnSequences,
                Rule::TooManySamples {
                    asked: num_return_sequences,
                    max: MAX_SAMPLES,
                },
            ));
        } else if num_return_sequences > 1 && c.guidance_scale.is_some_and(|g| g != 1.0) {
            return Err(ConfigError::invalid(
                Knob::NumReturnSequences,
                Rule::SamplesWithGuidance,
            ));
        }

        let no_repeat_ngram_size = count(c.no_repeat_ngram_size);
        let top_k = c.top_k.map(count).unwrap_or(0);

        if let Some(g) = c.guidance_scale {
            if g != 1.0 && (mode.is_beam() || mode == Mode::Contrastive) {
                return Err(ConfigError::invalid(
                    Knob::GuidanceScale,
                    Rule::GuidanceNeedsOneSequence,
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
                Rule::EmptyStopString,
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
            rules: token_rules(c)?,
            watermark: c
                .watermarking_config
                .clone()
                .map(|w| Watermark::new(w).map(Arc::new))
                .transpose()?,
            num_beam_groups,
            diversity_penalty: c.diversity_penalty as f32,
            force_words,
            dola_layers: match &c.dola_layers {
                Some(DolaLayers::List(v)) if v.is_empty() || v.iter().any(|&l| l < 0) => {
                    return Err(ConfigError::invalid(Knob::DolaLayers, Rule::DolaLayers))
                }
                Some(l) if matches!(mode, Mode::Greedy | Mode::Sample) => Some(l.clone()),
                _ => None,
            },
            llama_cpp: None,
            tutorial: None,
        })
    }
}

/// Constrained beam search's checks (HF 4.55's `validate` and scorer).
fn constrained_checks(c: &GenerationConfig, num_beams: usize) -> Result<(), ConfigError> {
    let why =
        |knob: Knob, value: String| ConfigError::invalid(knob, Rule::ConstrainedConflict(value));
    if c.do_sample {
        return Err(why(Knob::DoSample, "true".into()));
    }
    if c.num_beam_groups != 1 {
        return Err(why(Knob::NumBeamGroups, c.num_beam_groups.to_string()));
    }
    if num_beams < 2 {
        return Err(ConfigError::invalid(
            Knob::NumBeams,
            Rule::ConstrainedNeedsBeams(num_beams),
        ));
    }
    Ok(())
}

/// Diverse beam search's checks (HF 4.55's `validate` and `BeamSearchScorer`):
/// returns the number of groups.
fn diverse_groups(c: &GenerationConfig, num_beams: usize) -> Result<usize, ConfigError> {
    let groups = c.num_beam_groups;
    let penalty = c.diversity_penalty;
    // Both in range already (the knob table): groups ≥ 1, penalty ≥ 0.
    let groups = groups as usize;
    if num_beams == 1 {
        // HF warns and runs greedy or sampling; the warnings list says so.
        return Ok(1);
    }
    if groups > num_beams || !num_beams.is_multiple_of(groups) {
        return Err(ConfigError::invalid(
            Knob::NumBeamGroups,
            Rule::GroupsDivideBeams {
                groups,
                beams: num_beams,
            },
        ));
    }
    if groups > 1 && penalty == 0.0 {
        return Err(ConfigError::invalid(
            Knob::DiversityPenalty,
            Rule::GroupsNeedPenalty,
        ));
    }
    if groups == 1 && penalty > 0.0 {
        return Err(ConfigError::invalid(
            Knob::NumBeamGroups,
            Rule::PenaltyNeedsGroups,
        ));
    }
    Ok(groups)
}

/// The token-level rules, checked: ids non-negative, lists non-empty.
fn token_rules(c: &GenerationConfig) -> Result<TokenRules, ConfigError> {
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
                    return Err(ConfigError::invalid(Knob::SequenceBias, Rule::NanBias));
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
                return Err(ConfigError::invalid(
                    knob,
                    Rule::ExponentialDecay { start, factor },
                ));
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
