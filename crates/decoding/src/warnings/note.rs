//! What a "does nothing here" note says, as a value: the page words it in
//! its reader's language (`note-*` messages), tests match the variant.

use crate::knob::{Knob, Stage};
use crate::mode::Mode;
use serde::{Deserialize, Serialize};

/// Why a lane does not sample, for the knobs only sampling reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NotSampling {
    Beam,
    Contrastive,
    Greedy,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Note {
    // HF, from the config.
    /// A sampling knob in a lane that does not sample.
    DoesNotSample { knob: Knob, why: NotSampling },
    /// `seed` where nothing is random.
    SeedUnused,
    /// HF's silent `top_k=50` while sampling.
    TopK50Active,
    /// `early_stopping` / `length_penalty` outside beam search.
    BeamOnly { knob: Knob },
    /// `dola_layers` in a mode DoLa does not run in.
    DolaWrongMode { mode: Mode },
    /// `dola_layers` without HF's recommended repetition penalty.
    DolaRepeats,
    /// `num_beam_groups` / `diversity_penalty` without beams.
    NeedsBeams { knob: Knob },
    /// `penalty_alpha` outside contrastive search.
    PenaltyAlphaUnused,
    /// `repetition_penalty` below 1.
    RepetitionRewarded,
    /// `no_repeat_ngram_size=1`.
    NoRepeatOne,
    /// `min_new_tokens` with no eos token.
    MinNewTokensNoEos,
    /// `exponential_decay_length_penalty` with no eos token.
    DecayNoEos,
    /// `forced_bos_token_id` after a longer prompt.
    ForcedBosOneTokenPrompt,
    /// `begin_suppress_tokens` beside `suppress_tokens`.
    BeginSuppressFirstOnly,
    /// `renormalize_logits` outside beam search.
    RenormalizeNoChoice,
    /// `remove_invalid_values`.
    RemoveInvalidValues,
    // HF, from a finished run.
    /// A filter that never removed a token (`earlier`: one before it that cut more).
    RemovedNothing {
        stage: Stage,
        earlier: Option<Stage>,
    },
    /// A penalty that never changed a greedy choice.
    ChangedNoChoice { stage: Stage },
    // llama.cpp, from the config.
    /// Mirostat drops the other samplers.
    MirostatAlone,
    /// `temperature` after the listed filters, unlike HF.
    TemperatureAfter { filters: Vec<String> },
    /// `temperature` not in `samplers`.
    TemperatureNotListed,
    /// `repeat_last_n` 0.
    PenaltiesOff,
    /// The penalties' window (`None`: the whole context), unlike HF's.
    PenaltyWindow { last: Option<u32> },
    /// llama-server's own default filters.
    LlamaCppDefaults,
    /// An `xtc_threshold` above 0.5.
    XtcOff,
    /// A `dry_base` below 1.
    DryBaseReplaced,
    /// Seed -1.
    RandomSeed,
    /// `n_predict` -1.
    UntilContextFull,
}
