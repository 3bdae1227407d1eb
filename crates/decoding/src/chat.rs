//! A conversation as chat models take it: turns with a role (`system`,
//! `user`, `assistant`) and their text, before a chat template renders it.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: String,
    pub content: String,
}
