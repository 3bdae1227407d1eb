//! Which files make a model, for repos laid out as teachers find them:
//! `tokenizer.json`, or the older `vocab.json` + `merges.txt`; one
//! `model.safetensors`, or shards listed in `model.safetensors.index.json`;
//! `generation_config.json` when there is one (the model's own defaults);
//! `tokenizer_config.json` when there is one (an Instruct model's chat template);
//! and a clear word when a repo has only `pytorch_model.bin`. A folder
//! without `config.json` may hold llama.cpp's `model.gguf` instead, which
//! carries its own config, or a student's `minigpt.pt` (with or without a
//! `config.json` giving its head count).

use crate::fetch::{fail, fetch_file, file_url, head, refused, Fetched, LoadFailure, Shown};
use js_sys::Uint8Array;
use ntl_engine::shard_index::shard_names;
use ntl_engine::tokenizer_files::gpt2_tokenizer_json;
use ntl_protocol::hub_gguf::{pick, PickError};
use ntl_protocol::picked::{picked_layout, PickedTokenizer, PickedWeights};
use ntl_protocol::trouble::LoadTrouble;

/// The weights, and the config they need.
pub enum Weights {
    /// `config.json`, and one file or the shards in order.
    Safetensors {
        config: Vec<u8>,
        shards: Vec<Uint8Array>,
    },
    /// A `.gguf` file: its metadata is its config.
    Gguf(Uint8Array),
    /// A student's MiniGPT state dict, and the `config.json` beside it if any.
    Torch {
        pt: Uint8Array,
        config: Option<Vec<u8>>,
    },
}

/// A student's MiniGPT in a folder (seed 004 saves it under this name).
pub const TORCH: &str = "minigpt.pt";

/// A GGUF model in a folder: this name, beside its `tokenizer.json` or
/// carrying its own tokenizer.
pub const GGUF: &str = "model.gguf";

pub struct RepoFiles {
    pub weights: Weights,
    /// `tokenizer.json`; none for a `.gguf` file that carries its own.
    pub tokenizer: Option<Vec<u8>>,
    /// The model's own generation defaults, when the repo has them.
    pub generation_config: Option<Vec<u8>>,
    /// The tokenizer's settings: an Instruct model's chat template.
    pub tokenizer_config: Option<Vec<u8>>,
}

async fn get(base: &str, name: &str) -> Result<Option<Uint8Array>, LoadFailure> {
    match fetch_file(&file_url(base, name), &Shown::file(name)).await? {
        Fetched::Bytes(b) => Ok(Some(b)),
        Fetched::Missing => Ok(None),
    }
}

pub async fn repo_files(base: &str, repo: &str) -> Result<RepoFiles, LoadFailure> {
    // Without a config, llama.cpp's one file, which carries its own.
    let config = get(base, "config.json").await?.map(|c| c.to_vec());
    // A MiniGPT's config.json says so, or gives dnnlpy's arguments (a
    // student's, with its head count); its weights are its .pt.
    let minigpt = config
        .as_deref()
        .and_then(|c| serde_json::from_slice::<serde_json::Value>(c).ok())
        .is_some_and(|v| {
            v["model_type"] == "minigpt"
                || (v.get("model_type").is_none()
                    && v.get("architectures").is_none()
                    && ["num_heads", "embed_dim", "block_size"]
                        .iter()
                        .any(|k| v.get(k).is_some()))
        });
    let config = match config {
        Some(config) if !minigpt => Ok(config),
        Some(config) => match get(base, "model.safetensors").await? {
            Some(w) => {
                return Ok(RepoFiles {
                    weights: Weights::Safetensors {
                        config,
                        shards: vec![w],
                    },
                    tokenizer: Some(required_tokenizer(base, repo).await?),
                    generation_config: None,
                    tokenizer_config: None,
                })
            }
            None => return torch_files(base, repo, Some(config)).await,
        },
        None => match get(base, GGUF).await? {
            Some(gguf) => Err(gguf),
            None if head(&file_url(base, TORCH)).await.is_some_and(|r| r.ok()) => {
                return torch_files(base, repo, None).await
            }
            None => {
                return Err(fail(
                    "config.json",
                    LoadTrouble::NoConfig { repo: repo.into() },
                    false,
                ))
            }
        },
    };
    let tokenizer = match get(base, "tokenizer.json").await? {
        Some(t) => Some(t.to_vec()),
        // llama.cpp's file carries its tokenizer in its metadata.
        None if config.is_err() => None,
        None => Some(tokenizer_from_vocab(base, repo).await?),
    };
    let generation_config = get(base, "generation_config.json")
        .await?
        .map(|g| g.to_vec());
    let tokenizer_config = get(base, "tokenizer_config.json")
        .await?
        .map(|t| t.to_vec());
    let weights = match config {
        Ok(config) => Weights::Safetensors {
            config,
            shards: match get(base, "model.safetensors").await? {
                Some(w) => vec![w],
                None => shards(base, repo).await?,
            },
        },
        Err(gguf) => Weights::Gguf(gguf),
    };
    Ok(RepoFiles {
        weights,
        tokenizer,
        generation_config,
        tokenizer_config,
    })
}

async fn required_tokenizer(base: &str, repo: &str) -> Result<Vec<u8>, LoadFailure> {
    match get(base, "tokenizer.json").await? {
        Some(t) => Ok(t.to_vec()),
        None => Err(fail(
            "tokenizer.json",
            LoadTrouble::NoTokenizer { repo: repo.into() },
            false,
        )),
    }
}

/// A folder holding a student's `minigpt.pt` beside its `tokenizer.json`.
async fn torch_files(
    base: &str,
    repo: &str,
    config: Option<Vec<u8>>,
) -> Result<RepoFiles, LoadFailure> {
    let tokenizer = required_tokenizer(base, repo).await?;
    let pt = get(base, TORCH).await?.ok_or_else(|| {
        fail(
            TORCH,
            LoadTrouble::NoWeights {
                repo: repo.into(),
                index: INDEX.into(),
            },
            false,
        )
    })?;
    Ok(RepoFiles {
        weights: Weights::Torch { pt, config },
        tokenizer: Some(tokenizer),
        generation_config: None,
        tokenizer_config: None,
    })
}

/// A hub repo's model: `sel` names one of its `.gguf` files (a quant tag or
/// the file's name); without one, a transformers repo's files, else the
/// `.gguf` llama.cpp's `-hf` would take (the only one, or Q4_K_M). A hub
/// `.gguf` carries its own tokenizer and template, as llama.cpp reads it.
/// Also the file's name, when it is a `.gguf`.
pub async fn hub_files(
    base: &str,
    repo: &str,
    sel: Option<&str>,
) -> Result<(RepoFiles, Option<String>), LoadFailure> {
    if sel.is_none() {
        match repo_files(base, repo).await {
            Err(LoadFailure {
                trouble: LoadTrouble::NoConfig { .. },
                ..
            }) => {}
            other => return other.map(|files| (files, None)),
        }
    }
    let name = match (crate::hub_listing::listing(repo, base).await, sel) {
        (Ok(listing), sel) => pick(&listing, sel)
            .map_err(|pick| {
                let trouble = LoadTrouble::Gguf {
                    repo: repo.into(),
                    pick,
                };
                fail(sel.unwrap_or("config.json"), trouble, false)
            })?
            .name
            .clone(),
        // Offline with no listing kept: a file named outright may be cached.
        (Err(_), Some(file)) if file.to_ascii_lowercase().ends_with(".gguf") => file.into(),
        (Err(e), _) => return Err(e),
    };
    let bytes = get(base, &name).await?.ok_or_else(|| {
        let pick = PickError::NoSuchFile {
            name: name.clone(),
            files: vec![],
        };
        fail(
            &name,
            LoadTrouble::Gguf {
                repo: repo.into(),
                pick,
            },
            false,
        )
    })?;
    let files = RepoFiles {
        weights: Weights::Gguf(bytes),
        tokenizer: None,
        generation_config: None,
        tokenizer_config: None,
    };
    Ok((files, Some(name)))
}

/// Older GPT-2 repos (and many fine-tunes) ship `vocab.json` + `merges.txt`.
async fn tokenizer_from_vocab(base: &str, repo: &str) -> Result<Vec<u8>, LoadFailure> {
    let missing = || {
        fail(
            "tokenizer.json",
            LoadTrouble::NoTokenizer { repo: repo.into() },
            false,
        )
    };
    let vocab = get(base, "vocab.json").await?.ok_or_else(missing)?;
    let merges = get(base, "merges.txt").await?.ok_or_else(missing)?;
    gpt2_tokenizer_json(&vocab.to_vec(), &merges.to_vec())
        .map_err(|e| refused(Some("tokenizer.json"), e.to_string()))
}

pub const INDEX: &str = "model.safetensors.index.json";

async fn shards(base: &str, repo: &str) -> Result<Vec<Uint8Array>, LoadFailure> {
    let Some(index) = get(base, INDEX).await? else {
        return Err(no_safetensors(base, repo).await);
    };
    let (names, total) = shard_names(&index.to_vec())
        .map_err(|why| refused(Some(INDEX), format!("{INDEX} {why}")))?;
    let n = names.len();
    let mut out = Vec::with_capacity(n);
    let mut before = 0u64;
    for (i, name) in names.iter().enumerate() {
        // One progress bar over every shard.
        let shown = Shown {
            file: format!("model.safetensors (shard {} of {n})", i + 1),
            before,
            total: total.map(|t| t.max(before)),
        };
        match fetch_file(&file_url(base, name), &shown).await? {
            Fetched::Bytes(b) => {
                before += b.length() as u64;
                out.push(b);
            }
            Fetched::Missing => {
                return Err(fail(
                    name,
                    LoadTrouble::ShardMissing {
                        repo: repo.into(),
                        index: INDEX.into(),
                        name: name.clone(),
                    },
                    false,
                ))
            }
        }
    }
    Ok(out)
}

/// Why there are no weights to load: only a pickled `pytorch_model.bin`, or nothing.
async fn no_safetensors(base: &str, repo: &str) -> LoadFailure {
    let has_bin = head(&file_url(base, "pytorch_model.bin"))
        .await
        .is_some_and(|r| r.ok());
    let repo = repo.to_string();
    let trouble = if has_bin {
        LoadTrouble::PickleOnly { repo }
    } else {
        LoadTrouble::NoWeights {
            repo,
            index: INDEX.into(),
        }
    };
    fail("model.safetensors", trouble, false)
}

/// Files the user picked, in `picked_layout`'s order (the page sent them so).
pub fn picked_files(
    names: &[String],
    buffers: Option<js_sys::Array>,
) -> Result<RepoFiles, LoadFailure> {
    let refuse = |message: String| refused(None, message);
    let layout = picked_layout(names).map_err(|e| refuse(e.to_string()))?;
    let buffers = buffers
        .filter(|b| b.length() as usize == names.len())
        .ok_or_else(|| refuse("the picked files did not arrive; pick them again".into()))?;
    let bytes = |i: usize| Uint8Array::new(&buffers.get(i as u32));
    let tokenizer = match layout.tokenizer {
        PickedTokenizer::Json(t) => Some(bytes(t).to_vec()),
        PickedTokenizer::VocabMerges { vocab, merges } => Some(
            gpt2_tokenizer_json(&bytes(vocab).to_vec(), &bytes(merges).to_vec())
                .map_err(|e| refused(Some("tokenizer.json"), e.to_string()))?,
        ),
        PickedTokenizer::InGguf => None,
    };
    let weights = match &layout.weights {
        PickedWeights::Safetensors { config, files } => Weights::Safetensors {
            config: bytes(*config).to_vec(),
            shards: files.iter().map(|&i| bytes(i)).collect(),
        },
        PickedWeights::Gguf(g) => Weights::Gguf(bytes(*g)),
        PickedWeights::Torch { pt, config } => Weights::Torch {
            pt: bytes(*pt),
            config: config.map(|c| bytes(c).to_vec()),
        },
    };
    Ok(RepoFiles {
        weights,
        tokenizer,
        generation_config: layout.generation_config.map(|i| bytes(i).to_vec()),
        tokenizer_config: layout.tokenizer_config.map(|i| bytes(i).to_vec()),
    })
}
