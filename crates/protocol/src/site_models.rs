//! `models/index.json`: the model folders a site hosts beside the page, as
//! `scripts/index-models.mjs` writes it, listed under *Change model*. It is
//! read from the page's own site, but checked like anything a link brings:
//! every folder must be a plain name, and a bad entry spoils the whole list
//! with the entry named.

use crate::valid_folder_path;
use serde::{Deserialize, Serialize};

/// The index file's largest size read (a few hundred models).
pub const MAX_INDEX_BYTES: usize = 256 * 1024;
/// The most folders listed.
pub const MAX_SITE_MODELS: usize = 200;
/// Where the page looks for it, relative to itself.
pub const INDEX_PATH: &str = "models/index.json";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteModels {
    pub models: Vec<SiteModel>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteModel {
    /// The folder's name under `models/` (`distilgpt2`).
    pub folder: String,
    /// HF's class name from its `config.json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub architecture: Option<String>,
    /// Its weights' bytes, every shard added up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// What the teacher says of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl SiteModel {
    /// The folder's path as `?model=` and links name it.
    pub fn path(&self) -> String {
        format!("models/{}/", self.folder)
    }
}

#[derive(Debug, Clone, thiserror::Error, PartialEq)]
pub enum SiteModelsError {
    #[error("models/index.json is not a model index: {0}")]
    Format(String),
    #[error("models/index.json lists {0} folders; at most {MAX_SITE_MODELS} are read")]
    TooMany(usize),
    #[error("models/index.json lists the folder `{0}`, which is not one plain folder name under models/")]
    Folder(String),
}

/// Reads and checks an index.
pub fn parse(bytes: &[u8]) -> Result<SiteModels, SiteModelsError> {
    let index: SiteModels =
        serde_json::from_slice(bytes).map_err(|e| SiteModelsError::Format(e.to_string()))?;
    if index.models.len() > MAX_SITE_MODELS {
        return Err(SiteModelsError::TooMany(index.models.len()));
    }
    for m in &index.models {
        let one_name = !m.folder.contains('/') && valid_folder_path(&m.path());
        let short = |t: &Option<String>| t.as_ref().is_none_or(|t| t.chars().count() <= 200);
        if !one_name || !short(&m.architecture) || !short(&m.note) {
            return Err(SiteModelsError::Folder(m.folder.chars().take(80).collect()));
        }
    }
    Ok(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_lists_folders_under_models_by_their_paths() {
        let index = parse(
            br#"{"models": [{"folder": "distilgpt2", "architecture": "GPT2LMHeadModel", "bytes": 352824413},
                            {"folder": "class_gpt2.v2", "note": "our class's model"}]}"#,
        )
        .unwrap();
        assert_eq!(index.models[0].path(), "models/distilgpt2/");
        assert_eq!(index.models[0].bytes, Some(352_824_413));
        assert_eq!(index.models[1].note.as_deref(), Some("our class's model"));
    }

    #[test]
    fn a_hostile_or_broken_index_is_refused_with_the_entry_named() {
        for bad in ["..", "a/b", "https:", ".hidden", "", "x?y", "x y"] {
            let json = format!(r#"{{"models": [{{"folder": "{bad}"}}]}}"#);
            assert_eq!(
                parse(json.as_bytes()),
                Err(SiteModelsError::Folder(bad.into())),
                "{bad}"
            );
        }
        assert!(matches!(parse(b"[]"), Err(SiteModelsError::Format(_))));
        assert!(matches!(
            parse(br#"{"models": [{"folder": "a", "size": 3}]}"#),
            Err(SiteModelsError::Format(_))
        ));
        let many = format!(
            r#"{{"models": [{}]}}"#,
            vec![r#"{"folder": "a"}"#; MAX_SITE_MODELS + 1].join(",")
        );
        assert_eq!(
            parse(many.as_bytes()),
            Err(SiteModelsError::TooMany(MAX_SITE_MODELS + 1))
        );
    }
}
