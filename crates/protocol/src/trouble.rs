//! What the worker has to say about fetching a model — a failure, a wait, a
//! notice — as values, so the page words them in the reader's language.
//! `Display` is the English (the worker's log, and the page's English
//! catalog says the same: a test in the page holds them equal).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a download waits or gave up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NetTrouble {
    /// The connection dropped or was refused mid-download.
    ConnectionFailed,
    /// The hub answered 429 or 5xx.
    HubAnswered { status: u16, text: String },
    /// The body stopped before its end (`total_mb` when the size is known).
    BrokeOff {
        file: String,
        loaded_mb: u64,
        total_mb: Option<u64>,
        /// The next try asks for the rest only.
        resuming: bool,
    },
}

impl fmt::Display for NetTrouble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetTrouble::ConnectionFailed => f.write_str("the connection to the hub failed"),
            NetTrouble::HubAnswered { status, text } => {
                f.write_str(format!("the hub answered {status} {text}").trim_end())
            }
            NetTrouble::BrokeOff {
                file,
                loaded_mb,
                total_mb,
                resuming,
            } => {
                write!(f, "the download of {file} broke off")?;
                if let Some(total) = total_mb {
                    write!(f, " at {loaded_mb} of {total} MB")?;
                }
                if *resuming {
                    f.write_str("; resuming where it stopped")?;
                }
                Ok(())
            }
        }
    }
}

/// Why a model did not load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LoadTrouble {
    /// The very first request failed: offline, or the host is blocked.
    #[error("could not reach {url} (offline, or the host is blocked)")]
    Unreachable { url: String },
    #[error("{why}, {attempts} times in a row; try again later")]
    GaveUp { why: NetTrouble, attempts: u32 },
    /// The hub's `Retry-After` is longer than a page should wait.
    #[error("{why} and asks to wait {seconds} s; try again later")]
    WaitTooLong { why: NetTrouble, seconds: u32 },
    /// 401 or 403.
    #[error(
        "{url} answered HTTP {status}: the repo is private, gated or does not exist. This page \
         downloads without signing in; for a gated model, download its files where you accepted \
         its terms and pick them here"
    )]
    Private { url: String, status: u16 },
    #[error("{url} answered HTTP {status} {text}")]
    Answered {
        url: String,
        status: u16,
        text: String,
    },
    #[error("{repo} has no config.json: is it a transformers model repo or folder?")]
    NoConfig { repo: String },
    #[error("{repo} has neither tokenizer.json nor vocab.json with merges.txt")]
    NoTokenizer { repo: String },
    /// Only a pickled `pytorch_model.bin`.
    #[error(
        "{repo} has only pytorch_model.bin, a PyTorch pickle a browser cannot read (and should \
         not: a pickle can run code). Convert it once with transformers \
         (`AutoModelForCausalLM.from_pretrained(\"{repo}\").save_pretrained(\"out\", \
         safe_serialization=True)`) and pick the files in out/, or choose a repo that has \
         model.safetensors"
    )]
    PickleOnly { repo: String },
    #[error("{repo} has no model.safetensors (nor {index})")]
    NoWeights { repo: String, index: String },
    #[error("{repo}'s {index} lists {name}, which the repo does not have")]
    ShardMissing {
        repo: String,
        index: String,
        name: String,
    },
    /// A repo of llama.cpp files, and no `.gguf` the name picks.
    #[error("{repo}: {pick}")]
    Gguf {
        repo: String,
        pick: crate::hub_gguf::PickError,
    },
    #[error("a model is already loading")]
    AlreadyLoading,
    #[error("nothing to load from")]
    NothingToLoad,
    /// What the files themselves are missing or get wrong, in the worker's
    /// words (they name files and fields).
    #[error("{message}")]
    Other { message: String },
}

/// Something the page should say while the model loads or runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WorkerNotice {
    #[error(
        "the browser's storage for this site is full, so the model runs from memory and will \
         download again on your next visit (free space under the model's “Cached models”, or in \
         the browser's site settings)"
    )]
    StorageFull,
    #[error(
        "the browser would not store it, so the model runs from memory and will download again \
         on your next visit (free space under the model's “Cached models”, or in the browser's \
         site settings)"
    )]
    StorageRefused,
    /// A server that ignored the Range request.
    #[error(
        "the server cannot resume downloads (it ignored the Range request), so {file} downloads \
         again from the start"
    )]
    NoResume { file: String },
    /// The chat template could not be read; `why` in the engine's words.
    #[error("{why}; prompts stay plain text")]
    PlainPrompts { why: String },
}

/// Why the worker refused a run the page had already checked: what only the
/// model knows (its vocabulary, its layers, its context).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunTrouble {
    NoModel,
    /// A token id a knob names (`knob` as the lane names it) is past the
    /// model's vocabulary.
    OutsideVocabulary {
        knob: String,
        id: u32,
        vocab_size: usize,
    },
    /// `dola_layers` (as JSON) leave no layer to contrast with.
    NoDolaLayers {
        asked: String,
        n_layers: usize,
        tied_head: bool,
        last: usize,
    },
    /// The text to score holds no token of this vocabulary.
    NothingToScore,
    /// A guided lane's negative prompt and new tokens overflow the context
    /// (`lane` from 0).
    NegativePromptTooLong {
        lane: usize,
        tokens: usize,
        new_tokens: usize,
        positions: usize,
    },
    /// A sample tree the request or the model cannot grow.
    Tree {
        refusal: ntl_decoding::sample_tree::TreeRefusal,
    },
}
