//! What the page tells the reader — above the lanes, beside a knob, in a
//! panel — as a value: the state keeps it typed, and it is worded in the
//! reader's language where it shows (`I18n::said`), so switching language
//! rewords what is already on the page.

use crate::lessons::address::LessonAddressError;
use crate::page_error::PageError;
use crate::rc_eq::RcEq;
use ntl_decoding::config_rule::{LlamaCppRule, Rule};
use ntl_decoding::dola::NoCandidates;
use ntl_decoding::llama_cpp::LlamaCppKnob;
use ntl_decoding::sandbox::ToyError;
use ntl_decoding::ConfigError;
use ntl_decoding::Knob;
use ntl_protocol::lesson::link::{LessonLinkError, TooLongForALink};
use ntl_protocol::share::ShareError;
use ntl_protocol::trouble::{LoadTrouble, NetTrouble, RunTrouble, WorkerNotice};

#[derive(Debug, Clone, PartialEq)]
pub enum Said {
    /// Words that came as text — the worker's, the browser's — shown as
    /// given (the worker speaks English; its messages name files and knobs).
    Verbatim(String),
    /// A lane's or the sandbox's knobs refused.
    Config(ConfigError),
    /// The sandbox's typed logits refused.
    Toy(ToyError),
    Page(RcEq<PageError>),
    /// A share link refused.
    Link(RcEq<ShareError>),
    /// A `?lesson=` address refused.
    LessonAddress(LessonAddressError),
    /// A `#lesson=` link refused.
    LessonLink(RcEq<LessonLinkError>),
    /// The open lesson does not fit in a link.
    TooLongForALink(TooLongForALink),
    /// A lane has no knob of this name.
    NoKnob(String),
    /// A sandbox knob's box holds no number.
    SandboxNotANumber {
        knob: String,
        text: String,
    },
    /// *Score* with no continuation typed.
    ScoreNeedsText,
    /// A sample tree that cannot be grown from this lane or on this model.
    Tree(ntl_decoding::sample_tree::TreeRefusal),
    /// The worker is gone and the action needs it.
    WorkerDown,
    /// The worker ran out of memory with this model (needing this much, on a
    /// device that reports this much memory).
    OutOfMemory {
        source: Option<ntl_protocol::ModelSource>,
        need: Option<crate::state::memory_need::MemoryNeed>,
        device_gb: Option<f64>,
    },
    /// The site's `models/index.json` is not a model index.
    SiteModels(ntl_protocol::site_models::SiteModelsError),
    /// A run heard nothing from the worker for this long and was ended.
    RunStalled {
        seconds: u32,
    },
    /// The browser gave no random numbers for a lane's fresh seed.
    NoRandomSeed(String),
    /// The chat template needs a loaded model.
    ModelNotReady,
    /// The chat template needs a turn.
    ChatNeedsTurn,
    /// The worker stopped (its or the browser's words); nothing was lost.
    WorkerCrashed(String),
    /// The worker sent a message the page could not read.
    WorkerUnreadable {
        kind: Option<String>,
        detail: String,
        /// A run was going and was stopped.
        stopped: bool,
    },
    /// Every lane continues from a branch (1-based lane and step).
    Branched {
        lane: usize,
        step: usize,
        token: String,
        tokens: usize,
    },
    /// A model did not load (the worker's reason).
    Load(LoadTrouble),
    /// The worker's word while a model loads or runs.
    Notice(WorkerNotice),
    /// The default hub model was unreachable; the bundled one runs.
    HubOffline(LoadTrouble),
    /// A recording with more runs than lanes.
    FirstRunsShown {
        name: String,
        runs: usize,
    },
    /// A lesson step not saved, or the lesson being written not written out.
    Writer(RcEq<crate::state::writer_trouble::WriterTrouble>),
    /// The text to score holds no token of this vocabulary.
    NothingToScore,
    /// A guided lane's negative prompt overflows the context (lane from 1).
    NegativePromptTooLong {
        lane: usize,
        tokens: usize,
        new_tokens: usize,
        positions: usize,
    },
    /// A phrase to include, asked of a llama.cpp lane.
    NoConstrainedSearchInLlama,
    /// What was typed into the model box is not a repo id.
    NotARepoId(String),
    /// A lane's own model will not load, or not beside the others.
    LaneModel {
        name: String,
        trouble: crate::state::lane_model_trouble::LaneModelTrouble,
    },
}

/// Why a download's bar stands still.
#[derive(Debug, Clone, PartialEq)]
pub enum Retry {
    /// Trying again in `seconds` (try `attempt` of `of`).
    Countdown {
        why: NetTrouble,
        seconds: u32,
        attempt: u32,
        of: u32,
    },
    /// Another tab is downloading the file; this one reads it from the cache after.
    OtherTab { file: String },
}

impl Said {
    /// A lane's model named by something that names no model.
    pub fn is_not_a_model(&self) -> bool {
        matches!(
            self,
            Said::LaneModel {
                trouble: crate::state::lane_model_trouble::LaneModelTrouble::NotAModel,
                ..
            }
        )
    }

    /// A run the worker refused, said as the page's own checks say it:
    /// a knob's refusal is the knob's `ConfigError` (the worker's `message`
    /// where the knob is not one this page knows).
    pub fn from_run(trouble: RunTrouble, message: String) -> Said {
        match trouble {
            RunTrouble::NoModel => Said::ModelNotReady,
            RunTrouble::OutsideVocabulary {
                knob,
                id,
                vocab_size,
            } => match (knob.parse::<Knob>(), knob.parse::<LlamaCppKnob>()) {
                (Ok(knob), _) => Said::Config(ConfigError::Invalid {
                    knob,
                    rule: Rule::OutsideVocabulary { id, vocab_size },
                }),
                (_, Ok(knob)) => Said::Config(ConfigError::LlamaCpp {
                    knob,
                    rule: LlamaCppRule::OutsideVocabulary { id, vocab_size },
                }),
                _ => Said::Verbatim(message),
            },
            RunTrouble::NoDolaLayers {
                asked,
                n_layers,
                tied_head,
                last,
            } => Said::Config(ConfigError::Invalid {
                knob: Knob::DolaLayers,
                rule: Rule::NoDolaCandidates(NoCandidates {
                    asked,
                    n_layers,
                    tied_head,
                    last,
                }),
            }),
            RunTrouble::NothingToScore => Said::NothingToScore,
            RunTrouble::NegativePromptTooLong {
                lane,
                tokens,
                new_tokens,
                positions,
            } => Said::NegativePromptTooLong {
                lane: lane + 1,
                tokens,
                new_tokens,
                positions,
            },
            RunTrouble::Tree { refusal } => Said::Tree(refusal),
        }
    }
}

impl From<ConfigError> for Said {
    fn from(e: ConfigError) -> Self {
        Said::Config(e)
    }
}

impl From<PageError> for Said {
    fn from(e: PageError) -> Self {
        Said::Page(RcEq::new(e))
    }
}

impl From<ShareError> for Said {
    fn from(e: ShareError) -> Self {
        Said::Link(RcEq::new(e))
    }
}

impl From<LessonLinkError> for Said {
    fn from(e: LessonLinkError) -> Self {
        Said::LessonLink(RcEq::new(e))
    }
}

impl From<LessonAddressError> for Said {
    fn from(e: LessonAddressError) -> Self {
        Said::LessonAddress(e)
    }
}

impl From<ToyError> for Said {
    fn from(e: ToyError) -> Self {
        Said::Toy(e)
    }
}

/// Tests read what the page says in English.
#[cfg(test)]
impl std::fmt::Display for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::i18n::I18n::default().said(self))
    }
}
