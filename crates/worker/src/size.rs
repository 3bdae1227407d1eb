//! How much a hub model would download, learned before the download starts:
//! a share link naming a model waits for the user's word, and the word is
//! better given knowing "353 MB". Files already whole in the cache count as
//! nothing to download. Nothing here posts progress: the page is not loading.

use crate::fetch::{cached_bytes, cached_len, file_url, head, header, request, response_bytes};
use crate::repo::INDEX;
use ntl_engine::shard_index::shard_names;
use ntl_engine::ModelConfig;
use ntl_protocol::hub_gguf::{parse_hub_name, pick, Listing};
use ntl_protocol::{FromWorker, ModelShape};

/// The answer to `Measure` for a hub repo (with its `.gguf` selector) or a
/// model folder: the weights' size and the sizes `config.json` gives; for a
/// repo of llama.cpp files, the `.gguf` files it offers, and the size of the
/// one the selector (or llama.cpp's default) picks.
pub async fn measure(name: String) -> FromWorker {
    let answer = |size: Size, shape, gguf| FromWorker::Measured {
        repo: name.clone(),
        bytes: size.bytes,
        cached: size.cached,
        shape,
        gguf,
    };
    let unknown = || Size {
        bytes: None,
        cached: false,
    };
    let Some(base) = ntl_protocol::model_base(&name) else {
        return answer(unknown(), None, None);
    };
    let hub = parse_hub_name(&name);
    if let Some(hub) = hub.as_ref().filter(|h| h.gguf.is_none()) {
        let size = weights_size(&base).await;
        if size.bytes.is_some() {
            return answer(size, config_shape(&base).await, None);
        }
        // No transformers weights: perhaps a repo of llama.cpp files.
        return match crate::hub_listing::listing(hub.repo, &base).await {
            Ok(listing) if !listing.files.is_empty() => gguf_answer(listing, None, answer),
            _ => answer(size, None, None),
        };
    }
    if let Some(hub) = hub {
        return match crate::hub_listing::listing(hub.repo, &base).await {
            Ok(listing) => gguf_answer(listing, hub.gguf, answer),
            Err(_) => answer(unknown(), None, None),
        };
    }
    let size = weights_size(&base).await;
    answer(size, config_shape(&base).await, None)
}

fn gguf_answer(
    listing: Listing,
    sel: Option<&str>,
    answer: impl Fn(Size, Option<ModelShape>, Option<Listing>) -> FromWorker,
) -> FromWorker {
    let size = match pick(&listing, sel) {
        Ok(file) => Size {
            bytes: Some(file.bytes),
            cached: file.cached,
        },
        Err(_) => Size {
            bytes: None,
            cached: false,
        },
    };
    answer(size, None, Some(listing))
}

pub struct Size {
    pub bytes: Option<u64>,
    pub cached: bool,
}

enum Head {
    Len(u64),
    Missing,
    Unknown,
}

/// A HEAD through the hub's redirect: the CDN's `content-length`.
async fn head_len(url: &str) -> Head {
    let Some(resp) = head(url).await else {
        return Head::Unknown;
    };
    if resp.status() == 404 {
        return Head::Missing;
    }
    let len = header(&resp, "content-length").and_then(|v| v.parse().ok());
    match (resp.ok(), len) {
        (true, Some(n)) => Head::Len(n),
        _ => Head::Unknown,
    }
}

/// One file's size: from the cache when it is whole there, else a HEAD.
async fn file_size(url: &str) -> (Head, bool) {
    match cached_len(url).await {
        Some(n) => (Head::Len(n), true),
        None => (head_len(url).await, false),
    }
}

async fn download_small(url: &str) -> Option<Vec<u8>> {
    let resp = request(url, 0).await.ok()?;
    if !resp.ok() {
        return None;
    }
    response_bytes(resp).await
}

/// The weights' size under `base`: `model.safetensors`, or its shards
/// (each one's size, else the index's stated total), or `model.gguf`.
pub async fn weights_size(base: &str) -> Size {
    let unknown = Size {
        bytes: None,
        cached: false,
    };
    match file_size(&file_url(base, "model.safetensors")).await {
        (Head::Len(n), cached) => {
            return Size {
                bytes: Some(n),
                cached,
            }
        }
        (Head::Unknown, _) => return unknown,
        (Head::Missing, _) => {}
    }
    let index_url = file_url(base, INDEX);
    let index = match cached_bytes(&index_url).await {
        Some(bytes) => Some(bytes),
        None => download_small(&index_url).await,
    };
    let Some((names, total)) = index.and_then(|i| shard_names(&i).ok()) else {
        // A folder of llama.cpp's: one file, its config inside; or a
        // student's MiniGPT, its state dict.
        for file in [crate::repo::GGUF, crate::repo::TORCH] {
            if let (Head::Len(n), cached) = file_size(&file_url(base, file)).await {
                return Size {
                    bytes: Some(n),
                    cached,
                };
            }
        }
        return unknown;
    };
    let (mut sum, mut all_cached) = (0u64, true);
    for name in &names {
        match file_size(&file_url(base, name)).await {
            (Head::Len(n), cached) => {
                sum += n;
                all_cached &= cached;
            }
            _ => {
                return Size {
                    bytes: total,
                    cached: false,
                }
            }
        }
    }
    Size {
        bytes: Some(sum),
        cached: all_cached,
    }
}

/// The sizes the model's `config.json` under `base` gives (a few hundred
/// bytes, from the cache when a load left it there); `None` when
/// there is none or this engine cannot run what it describes.
pub async fn config_shape(base: &str) -> Option<ModelShape> {
    let url = file_url(base, "config.json");
    let bytes = match cached_bytes(&url).await {
        Some(bytes) => bytes,
        None => download_small(&url).await?,
    };
    let config = ModelConfig::from_json(&bytes).ok()?;
    Some(ModelShape {
        n_layer: config.n_layer,
        n_head: config.n_head,
        n_kv_head: match &config.family {
            ntl_engine::model_config::Family::Llama(s) => s.n_kv_head,
            ntl_engine::model_config::Family::Gpt2 { .. }
            | ntl_engine::model_config::Family::MiniGpt { .. } => config.n_head,
        },
        head_dim: config.head_dim(),
        n_embd: config.n_embd,
        vocab_size: config.vocab_size,
        n_positions: config.n_positions,
    })
}
