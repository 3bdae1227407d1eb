//! A model folder on disk (`config.json`, `model.safetensors`,
//! `tokenizer.json`, optionally `generation_config.json`) as an engine.

use ntl_engine::{Engine, LoadError, ModelFiles};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ModelDirError {
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Load(#[from] LoadError),
}

pub fn read(dir: &Path, name: &str) -> Result<Vec<u8>, ModelDirError> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|source| ModelDirError::Read { path, source })
}

/// The folder's model, with its `generation_config.json` under every lane
/// when it has one (as HF's `generate()` does).
pub fn load(dir: &Path) -> Result<Engine, ModelDirError> {
    let (config, weights, tokenizer) = (
        read(dir, "config.json")?,
        read(dir, "model.safetensors")?,
        read(dir, "tokenizer.json")?,
    );
    let engine = Engine::load(ModelFiles {
        config: &config,
        weights: &weights,
        tokenizer: &tokenizer,
    })?;
    let path = dir.join("generation_config.json");
    match std::fs::read(&path) {
        Ok(bytes) => Ok(engine.with_generation_config(&bytes)?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(engine),
        Err(source) => Err(ModelDirError::Read { path, source }),
    }
}
