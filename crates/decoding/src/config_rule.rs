//! What a knob's value breaks, beyond its own range (the knob table checks
//! ranges): typed, so a message can be worded at the edge — HF's and
//! llama-server's words in English here, a catalog's in another language —
//! and two errors compare by what they say, not by their text.

use crate::dola::NoCandidates;
use crate::knob::Knob;
use crate::llama_cpp::knob::LlamaCppKnob;
use crate::llama_cpp::sampler::SamplerName;

/// An HF lane's knob that breaks a rule (the knob sits beside it in
/// [`crate::ConfigError::Invalid`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Rule {
    /// Sampling with a temperature of 0 or less.
    SamplingNeedsTemperature(f64),
    /// More beams than this page runs.
    TooManyBeams { asked: usize, max: usize },
    /// `do_sample` with beam groups.
    DiverseBeamsCannotSample,
    /// More returned sequences than beams.
    MoreSequencesThanBeams,
    /// Greedy decoding asked for several sequences.
    GreedyReturnsOne(usize),
    /// More samples than this page draws.
    TooManySamples { asked: usize, max: usize },
    /// Several samples with guidance (one unconditional pass follows one sample).
    SamplesWithGuidance,
    /// Guidance on beams or contrastive search.
    GuidanceNeedsOneSequence,
    /// An empty stop string.
    EmptyStopString,
    /// `dola_layers` neither low, high nor a list of layers.
    DolaLayers,
    /// `dola_layers` leave no layer on this model.
    NoDolaCandidates(NoCandidates),
    /// `force_words_ids` with a knob constrained search cannot take.
    ConstrainedConflict(String),
    /// `force_words_ids` with fewer than two beams.
    ConstrainedNeedsBeams(usize),
    /// Beams that the groups do not divide.
    GroupsDivideBeams { groups: usize, beams: usize },
    /// Groups with no diversity penalty.
    GroupsNeedPenalty,
    /// A diversity penalty with one group.
    PenaltyNeedsGroups,
    /// A `sequence_bias` bias that is NaN.
    NanBias,
    /// `exponential_decay_length_penalty` out of its ranges.
    ExponentialDecay { start: i64, factor: f64 },
    /// A negative token id (or one past 32 bits).
    NotATokenId(i64),
    /// An empty list of id lists.
    NoIdLists,
    /// An empty id list inside one.
    EmptyIdList,
    /// A token id outside the model's vocabulary.
    OutsideVocabulary { id: u32, vocab_size: usize },
}

impl Rule {
    /// The message, in HF's words where HF has them.
    pub fn message(&self, knob: Knob) -> String {
        match self {
            Rule::SamplingNeedsTemperature(t) => format!(
                "`temperature` (={t}) has to be a strictly positive float, otherwise your next \
                 token scores will be invalid. If you're looking for greedy decoding \
                 strategies, set `do_sample=False`."
            ),
            Rule::TooManyBeams { asked, max } => {
                format!("`num_beams` is {asked}; this page allows at most {max} beams per lane")
            }
            Rule::DiverseBeamsCannotSample => "Diverse beam search cannot be used in sampling \
                 mode. Make sure that `do_sample` is set to `False`."
                .into(),
            Rule::MoreSequencesThanBeams => {
                "`num_return_sequences` has to be smaller or equal to `num_beams`.".into()
            }
            Rule::GreedyReturnsOne(n) => format!(
                "Greedy methods without beam search do not support `num_return_sequences` \
                 different than 1 (got {n})."
            ),
            Rule::TooManySamples { asked, max } => format!(
                "`num_return_sequences` is {asked}; this page allows at most {max} samples per lane"
            ),
            Rule::SamplesWithGuidance => "`num_return_sequences` > 1 with `guidance_scale` is \
                 not supported here: one unconditional pass follows one sample"
                .into(),
            Rule::GuidanceNeedsOneSequence => "`guidance_scale` works with greedy and sampling \
                 lanes here (HF's unbatched guidance follows one sequence, not beams or \
                 contrastive candidates)"
                .into(),
            Rule::EmptyStopString => "`stop_strings` must not contain an empty string".into(),
            Rule::DolaLayers => "`dola_layers` must be \"low\", \"high\" or a non-empty list of \
                 layer indices from 0 (the embeddings)"
                .into(),
            Rule::NoDolaCandidates(e) => e.to_string(),
            Rule::ConstrainedConflict(value) => format!(
                "`force_words_ids` triggers constrained beam search. However, `{knob}` is set to \
                 `{value}`, which is incompatible with this generation mode."
            ),
            Rule::ConstrainedNeedsBeams(n) => format!(
                "`num_beams` has to be an integer strictly greater than 1 for constrained beam \
                 search (`force_words_ids`), but is {n}"
            ),
            Rule::GroupsDivideBeams { groups, beams } => format!(
                "`num_beam_groups` has to be an integer smaller or equal than `num_beams` and \
                 `num_beams` has to be divisible by `num_beam_groups`, but is {groups} with \
                 `num_beams` being {beams}."
            ),
            Rule::GroupsNeedPenalty => "`diversity_penalty` should be greater than `0.0`, \
                 otherwise your groups will be identical."
                .into(),
            Rule::PenaltyNeedsGroups => "`diversity_penalty` needs `num_beam_groups` > 1: the \
                 penalty acts on the tokens earlier groups chose, and one group has none before it"
                .into(),
            Rule::NanBias => "`sequence_bias` biases must be numbers, not NaN".into(),
            Rule::ExponentialDecay { start, factor } => format!(
                "`{knob}` is [start_index, decay_factor] with start_index >= 0 and a positive \
                 decay_factor, but is [{start}, {factor}]"
            ),
            Rule::NotATokenId(id) => {
                format!("`{knob}` must hold non-negative token ids, but has {id}")
            }
            Rule::NoIdLists => format!("`{knob}` has to be a non-empty list of token-id lists"),
            Rule::EmptyIdList => format!("`{knob}` must not hold an empty token-id list"),
            Rule::OutsideVocabulary { id, vocab_size } => {
                format!("`{knob}` names token {id}, outside the vocabulary of {vocab_size} tokens")
            }
        }
    }
}

/// A llama.cpp lane's knob that breaks a rule, in llama-server's words
/// where it has them.
#[derive(Debug, Clone, PartialEq)]
pub enum LlamaCppRule {
    /// Outside one of llama-server's hard limits.
    Between { min: f64, max: f64, got: f64 },
    /// What was typed into the knob's box is not a value.
    NotANumber(String),
    /// `infill` in the chain (GPT-2 has no fill-in-the-middle tokens).
    Infill,
    /// `n_predict` of 0 (llama-server only reads the prompt).
    NothingToPredict,
    /// A seed outside 32 bits.
    Seed(i64),
    /// A repeat penalty of 0 or less.
    RepeatPenalty(f64),
    /// No DRY sequence breakers.
    NoBreakers,
    /// A sampler name llama.cpp does not know.
    UnknownSampler {
        name: String,
        hint: Option<&'static str>,
    },
    /// A `logit_bias` entry llama-server would skip.
    LogitBias(LogitBiasProblem),
    /// A `logit_bias` token outside the model's vocabulary.
    OutsideVocabulary { id: u32, vocab_size: usize },
}

/// What is wrong with a `logit_bias` entry; the offending JSON as written.
#[derive(Debug, Clone, PartialEq)]
pub enum LogitBiasProblem {
    NotABias(String),
    NotATokenId(String),
    NotAToken(String),
    NotAPair(String),
    NotListOrObject(String),
}

impl LlamaCppRule {
    pub fn message(&self, knob: LlamaCppKnob) -> String {
        match self {
            LlamaCppRule::Between { min, max, got } => {
                format!("`{knob}`: value must be between {min} <= value <= {max}, but got {got}")
            }
            LlamaCppRule::NotANumber(text) => format!("`{knob}`: `{text}` is not a number"),
            LlamaCppRule::Infill => "`infill` needs a fill-in-the-middle model's special tokens, \
                 which GPT-2 does not have; remove it from `samplers`"
                .into(),
            LlamaCppRule::NothingToPredict => "`n_predict` 0 only evaluates the prompt in \
                 llama-server; give -1 (until the context is full) or a number of tokens"
                .into(),
            LlamaCppRule::Seed(s) => {
                format!("`seed` is a 32-bit unsigned number (or -1), but got {s}")
            }
            LlamaCppRule::RepeatPenalty(p) => format!(
                "penalty_repeat must be finite and greater than 0, but `repeat_penalty` is {p}"
            ),
            LlamaCppRule::NoBreakers => {
                "Error: dry_sequence_breakers must be a non-empty array of strings".into()
            }
            LlamaCppRule::UnknownSampler { name, hint } => format!(
                "`samplers`: `{name}` is not a llama.cpp sampler{}; llama.cpp would skip it \
                 with a warning — the samplers are {}",
                hint.map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default(),
                SamplerName::listable()
                    .map(|s| s.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            LlamaCppRule::LogitBias(p) => format!(
                "`logit_bias`: {}",
                match p {
                    LogitBiasProblem::NotABias(v) =>
                        format!("a bias is a number or false, not {v}"),
                    LogitBiasProblem::NotATokenId(v) => format!("token {v} is not a token id"),
                    LogitBiasProblem::NotAToken(v) => {
                        format!("a token is an id or a text, not {v}")
                    }
                    LogitBiasProblem::NotAPair(v) =>
                        format!("each entry is [token, bias], not {v}"),
                    LogitBiasProblem::NotListOrObject(v) => {
                        format!("give [[token, bias], ...] or {{\"token\": bias}}, not {v}")
                    }
                }
            ),
            LlamaCppRule::OutsideVocabulary { id, vocab_size } => format!(
                "`logit_bias` names token {id}, outside the vocabulary of {vocab_size} tokens"
            ),
        }
    }
}
