//! Fields that HF and llama-server take as one value or a list.

use serde::{Deserialize, Serialize};

/// `eos_token_id` may be one id or a list, as in HF.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TokenIds {
    One(i64),
    Many(Vec<i64>),
}

/// `stop_strings` may be one string or a list, as in HF.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Strings {
    One(String),
    Many(Vec<String>),
}
