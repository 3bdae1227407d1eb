//! Load and run errors, each a message a person can act on, with the error
//! underneath (serde's, candle's, the tokenizer's) kept as its source.

use ntl_decoding::{ConfigError, ModelError};

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// `config.json` is missing, malformed, or not a family this engine runs.
    #[error("config.json: {message}")]
    Config {
        message: String,
        #[source]
        source: Option<serde_json::Error>,
    },
    /// `model.safetensors` is truncated, corrupt, or does not match the config.
    #[error("model.safetensors: {message}")]
    Weights {
        message: String,
        #[source]
        source: Option<candle_core::Error>,
    },
    /// A `.gguf` file is truncated, corrupt, of an architecture or a block
    /// format this engine does not run, or at odds with its own metadata.
    #[error("GGUF file: {message}")]
    Gguf {
        message: String,
        #[source]
        source: Option<candle_core::Error>,
    },
    /// A PyTorch checkpoint (`minigpt.pt`) is not a zip torch.save wrote,
    /// names globals other than tensors', or is not the model it claims.
    #[error("minigpt.pt: {message}")]
    Torch {
        message: String,
        #[source]
        source: Option<crate::torch_checkpoint::TorchError>,
    },
    /// `generation_config.json` (optional) is malformed or sets an invalid knob.
    #[error("generation_config.json: {source}")]
    GenerationConfig {
        #[source]
        source: ConfigError,
    },
    /// `tokenizer_config.json` (optional) is malformed or its chat template does not parse.
    #[error("tokenizer_config.json: {message}")]
    TokenizerConfig {
        message: String,
        #[source]
        source: Option<serde_json::Error>,
    },
    /// `tokenizer.json` is missing, malformed, or does not fit the model.
    #[error("tokenizer.json: {message}")]
    Tokenizer {
        message: String,
        #[source]
        source: Option<tokenizers::Error>,
    },
}

impl LoadError {
    pub(crate) fn config(message: impl Into<String>) -> Self {
        LoadError::Config {
            message: message.into(),
            source: None,
        }
    }

    pub(crate) fn weights(message: impl Into<String>) -> Self {
        LoadError::Weights {
            message: message.into(),
            source: None,
        }
    }

    pub(crate) fn gguf(message: impl Into<String>) -> Self {
        LoadError::Gguf {
            message: message.into(),
            source: None,
        }
    }

    pub(crate) fn tokenizer(message: impl Into<String>) -> Self {
        LoadError::Tokenizer {
            message: message.into(),
            source: None,
        }
    }

    /// Which of the three files is at fault.
    pub fn file(&self) -> &'static str {
        match self {
            LoadError::Config { .. } => "config.json",
            LoadError::Weights { .. } => "model.safetensors",
            LoadError::Gguf { .. } => "model.gguf",
            LoadError::Torch { .. } => "minigpt.pt",
            LoadError::Tokenizer { .. } => "tokenizer.json",
            LoadError::GenerationConfig { .. } => "generation_config.json",
            LoadError::TokenizerConfig { .. } => "tokenizer_config.json",
        }
    }
}

/// What is wrong with the prompt of a run.
#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    #[error("could not tokenize the text: {0}")]
    Tokenize(#[source] tokenizers::Error),
    #[error("prompt token id {id} is outside the vocabulary of {vocab_size}")]
    OutsideVocab { id: u32, vocab_size: usize },
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A lane's configuration is invalid (for this model).
    #[error("lane {}: {source}", .lane + 1)]
    Config {
        lane: usize,
        #[source]
        source: ConfigError,
    },
    /// A lane was given tokens to follow that this vocabulary does not have.
    #[error("lane {}: {}", .lane + 1, FORCED_IDS)]
    ForcedIds { lane: usize },
    #[error("no lanes to run")]
    NoLanes,
    /// Guidance's unconditional pass would outgrow the context.
    #[error(
        "lane {}: the negative prompt ({tokens} tokens) and up to {new_tokens} new tokens do \
         not fit the model's {positions} positions; shorten it or ask for fewer tokens",
        .lane + 1
    )]
    NegativePromptTooLong {
        lane: usize,
        tokens: usize,
        new_tokens: usize,
        positions: usize,
    },
    #[error("prompt: {0}")]
    Prompt(#[from] PromptError),
    #[error("model: {0}")]
    Model(#[from] ModelError),
    /// A sample tree the request or the model cannot grow.
    #[error("sample tree: {0}")]
    Tree(#[from] ntl_decoding::sample_tree::TreeError),
}

/// Why a lane cannot follow its given tokens.
pub const FORCED_IDS: &str = "the text to score must hold at least one token of this vocabulary";
