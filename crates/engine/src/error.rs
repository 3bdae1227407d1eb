//! Load and run errors, each a message a person can act on.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum LoadError {
    /// `config.json` is missing, malformed, or not a GPT-2-family model.
    Config(String),
    /// `model.safetensors` is truncated, corrupt, or does not match the config.
    Weights(String),
    /// `tokenizer.json` is missing, malformed, or does not fit the model.
    Tokenizer(String),
}

impl LoadError {
    /// Which of the three files is at fault.
    pub fn file(&self) -> &'static str {
        match self {
            LoadError::Config(_) => "config.json",
            LoadError::Weights(_) => "model.safetensors",
            LoadError::Tokenizer(_) => "tokenizer.json",
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let msg = match self {
            LoadError::Config(m) | LoadError::Weights(m) | LoadError::Tokenizer(m) => m,
        };
        write!(f, "{}: {msg}", self.file())
    }
}

impl std::error::Error for LoadError {}

#[derive(Debug, Clone, PartialEq)]
pub enum RunError {
    /// A lane's configuration is invalid.
    Config {
        lane: usize,
        field: Option<String>,
        message: String,
    },
    Prompt(String),
    Model(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Config { lane, message, .. } => write!(f, "lane {}: {message}", lane + 1),
            RunError::Prompt(m) => write!(f, "prompt: {m}"),
            RunError::Model(m) => write!(f, "model: {m}"),
        }
    }
}

impl std::error::Error for RunError {}
