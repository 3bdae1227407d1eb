//! A model folder on disk (`config.json`, `model.safetensors`,
//! `tokenizer.json`, optionally `generation_config.json`) as an engine; or a
//! llama.cpp `.gguf` file, named itself or alone in its folder, with the
//! `tokenizer.json` beside it; or a student's MiniGPT (seed 004): a `.pt`
//! state dict, named itself or in its folder, with its `tokenizer.json` and
//! optionally a `config.json` (the head count; else the tutorial's 4).

use ntl_engine::{Engine, LoadError, Precision};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ModelDirError {
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{} holds several .gguf files ({}); name one: --model {}",
        .dir.display(), .names.join(", "), .dir.join(&.names[0]).display()
    )]
    SeveralGguf { dir: PathBuf, names: Vec<String> },
    #[error("{} is a GGUF file, already in the types it was quantized to; --quantize q8_0 quantizes a safetensors model while loading", .0.display())]
    QuantizedAlready(PathBuf),
    #[error(
        "{} holds several .pt files ({}); name one: --model {}",
        .dir.display(), .names.join(", "), .dir.join(&.names[0]).display()
    )]
    SeveralPt { dir: PathBuf, names: Vec<String> },
    #[error(transparent)]
    Load(#[from] LoadError),
}

pub fn read(dir: &Path, name: &str) -> Result<Vec<u8>, ModelDirError> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|source| ModelDirError::Read { path, source })
}

/// The names in folder `dir` that `wanted` takes, sorted.
fn listed(dir: &Path, wanted: impl Fn(&str) -> bool) -> Result<Vec<String>, ModelDirError> {
    let listing = std::fs::read_dir(dir).map_err(|source| ModelDirError::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut names: Vec<String> = listing
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| wanted(n))
        .collect();
    names.sort();
    Ok(names)
}

/// The one file of a kind in a folder: none, it, or (`several`) which ones.
fn the_only(
    dir: &Path,
    names: Vec<String>,
    several: impl FnOnce(PathBuf, Vec<String>) -> ModelDirError,
) -> Result<Option<PathBuf>, ModelDirError> {
    match &names[..] {
        [] => Ok(None),
        [one] => Ok(Some(dir.join(one))),
        _ => Err(several(dir.to_path_buf(), names)),
    }
}

/// The `.gguf` file `path` names: itself, or the only one in its folder
/// when the folder has no `model.safetensors`.
fn gguf_file(path: &Path) -> Result<Option<PathBuf>, ModelDirError> {
    if path.extension().is_some_and(|e| e == "gguf") {
        return Ok(Some(path.to_path_buf()));
    }
    if !path.is_dir() || path.join("model.safetensors").exists() {
        return Ok(None);
    }
    let names = listed(path, |n| n.ends_with(".gguf"))?;
    the_only(path, names, |dir, names| ModelDirError::SeveralGguf {
        dir,
        names,
    })
}

/// The PyTorch state dict `path` names: itself, `minigpt.pt` in its
/// folder, or the only `.pt` there, when the folder has no `model.safetensors`.
fn pt_file(path: &Path) -> Result<Option<PathBuf>, ModelDirError> {
    if path.extension().is_some_and(|e| e == "pt" || e == "pth") {
        return Ok(Some(path.to_path_buf()));
    }
    if !path.is_dir() || path.join("model.safetensors").exists() {
        return Ok(None);
    }
    if path.join("minigpt.pt").is_file() {
        return Ok(Some(path.join("minigpt.pt")));
    }
    let names = listed(path, |n| n.ends_with(".pt") || n.ends_with(".pth"))?;
    the_only(path, names, |dir, names| ModelDirError::SeveralPt {
        dir,
        names,
    })
}

/// The file `name` beside the model, or `None` when there is none.
fn optional(dir: &Path, name: &str) -> Result<Option<Vec<u8>>, ModelDirError> {
    match std::fs::read(dir.join(name)) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ModelDirError::Read {
            path: dir.join(name),
            source,
        }),
    }
}

/// The folder's model (or the `.gguf` file's), with its
/// `generation_config.json` under every lane when it has one (as HF's
/// `generate()` does).
pub fn load(path: &Path) -> Result<Engine, ModelDirError> {
    load_as(path, Precision::AsStored)
}

/// [`load`], a safetensors model's matrices kept as `precision` says.
pub fn load_as(path: &Path, precision: Precision) -> Result<Engine, ModelDirError> {
    if let Some(file) = pt_file(path)? {
        let dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
        let pt = std::fs::read(&file).map_err(|source| ModelDirError::Read {
            path: file.clone(),
            source,
        })?;
        let config = optional(&dir, "config.json")?;
        let tokenizer = read(&dir, "tokenizer.json")?;
        let engine = Engine::load_torch(&pt, config.as_deref(), None, &tokenizer, precision)?;
        return Ok(engine);
    }
    let (engine, dir) = match gguf_file(path)? {
        Some(file) if precision != Precision::AsStored => {
            return Err(ModelDirError::QuantizedAlready(file))
        }
        Some(file) => {
            let dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
            let gguf = std::fs::read(&file).map_err(|source| ModelDirError::Read {
                path: file.clone(),
                source,
            })?;
            // Without a tokenizer.json beside it, the file's own tokenizer.
            let tokenizer = optional(&dir, "tokenizer.json")?;
            let engine = Engine::load_gguf(&gguf.as_slice(), tokenizer.as_deref())?;
            (engine, dir)
        }
        None => {
            let (config, weights, tokenizer) = (
                read(path, "config.json")?,
                read(path, "model.safetensors")?,
                read(path, "tokenizer.json")?,
            );
            let engine =
                Engine::load_sharded_as(&config, &[&weights.as_slice()], &tokenizer, precision)?;
            (engine, path.to_path_buf())
        }
    };
    let dir = dir.as_path();
    let path = dir.join("generation_config.json");
    match std::fs::read(&path) {
        Ok(bytes) => Ok(engine.with_generation_config(&bytes)?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(engine),
        Err(source) => Err(ModelDirError::Read { path, source }),
    }
}
