//! `"model"` in a lane's `--config`: the model that lane runs on (a folder
//! or a `.gguf` file, as `--model` takes), every distinct model loaded once.
//! Lanes that name none run on `--model`.

use crate::model_dir::{load_as, ModelDirError};
use ntl_engine::{Engine, Precision};
use std::path::{Path, PathBuf};

/// The models a run's lanes need, and which each lane runs on.
pub struct LaneModels {
    /// Each distinct model once, with its name as the lanes gave it.
    pub engines: Vec<(String, Engine)>,
    /// Lane `i` runs on `engines[on_model[i]]`.
    pub on_model: Vec<usize>,
    /// Each lane's config without its `"model"`.
    pub configs: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum LaneModelError {
    #[error("--config #{}: \"model\" is a folder or a .gguf file, given as a string, not {found}", .lane + 1)]
    NotAPath { lane: usize, found: String },
    #[error("lane {} runs on {}: {source}", .lane + 1, .path.display())]
    Load {
        lane: usize,
        path: PathBuf,
        #[source]
        source: Box<ModelDirError>,
    },
    #[error("lane {} names no \"model\" in its --config, and no --model is given for it", .lane + 1)]
    NoModel { lane: usize },
}

/// A config's `"model"`, and the config without it. Text that is not a
/// JSON object is left for the config's own parser to report.
pub fn split_model(lane: usize, text: &str) -> Result<(Option<String>, String), LaneModelError> {
    let Ok(serde_json::Value::Object(mut map)) = serde_json::from_str(text) else {
        return Ok((None, text.to_string()));
    };
    match map.remove("model") {
        None => Ok((None, text.to_string())),
        Some(serde_json::Value::String(path)) if !path.is_empty() => {
            Ok((Some(path), serde_json::Value::Object(map).to_string()))
        }
        Some(other) => Err(LaneModelError::NotAPath {
            lane,
            found: other.to_string(),
        }),
    }
}

/// The same file or folder however it was written.
fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Loads each model the lanes name (and `default` if a lane names none),
/// once each, in the order lanes first need them.
pub fn load_lane_models(
    default: Option<&Path>,
    configs: &[String],
    precision: Precision,
) -> Result<LaneModels, LaneModelError> {
    let mut engines: Vec<(String, Engine)> = vec![];
    let mut loaded: Vec<PathBuf> = vec![];
    let mut on_model = vec![];
    let mut bare = vec![];
    for (lane, text) in configs.iter().enumerate() {
        let (named, config) = split_model(lane, text)?;
        let (name, path) = match named {
            Some(p) => (p.clone(), PathBuf::from(p)),
            None => {
                let d = default.ok_or(LaneModelError::NoModel { lane })?;
                (d.display().to_string(), d.to_path_buf())
            }
        };
        let id = identity(&path);
        let m = match loaded.iter().position(|l| *l == id) {
            Some(m) => m,
            None => {
                let engine = load_as(&path, precision).map_err(|source| LaneModelError::Load {
                    lane,
                    path: path.clone(),
                    source: Box::new(source),
                })?;
                engines.push((name, engine));
                loaded.push(id);
                engines.len() - 1
            }
        };
        on_model.push(m);
        bare.push(config);
    }
    Ok(LaneModels {
        engines,
        on_model,
        configs: bare,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configs_model_is_split_off_and_the_rest_kept() {
        let (model, rest) = split_model(0, r#"{"model": "models/b", "top_k": 5}"#).unwrap();
        assert_eq!(model.as_deref(), Some("models/b"));
        assert_eq!(rest, r#"{"top_k":5}"#);
        let (model, rest) = split_model(0, r#"{"top_k": 5}"#).unwrap();
        assert_eq!((model, rest.as_str()), (None, r#"{"top_k": 5}"#));
        // Not an object: the config's parser says what is wrong with it.
        assert_eq!(split_model(0, "[1]").unwrap(), (None, "[1]".to_string()));
    }

    #[test]
    fn a_model_that_is_not_a_path_is_named_with_its_lane() {
        let e = split_model(2, r#"{"model": 7}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--config #3: \"model\" is a folder or a .gguf file, given as a string, not 7"
        );
        assert!(split_model(0, r#"{"model": ""}"#).is_err());
    }

    #[test]
    fn a_lane_without_a_model_and_no_default_is_refused_by_number() {
        let e = match load_lane_models(None, &["{}".into()], Precision::AsStored) {
            Err(e) => e,
            Ok(_) => panic!("no model to run on"),
        };
        assert_eq!(
            e.to_string(),
            "lane 1 names no \"model\" in its --config, and no --model is given for it"
        );
    }
}
