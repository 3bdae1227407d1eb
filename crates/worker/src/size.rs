//! How much a hub model would download, learned before the download starts:
//! a share link naming a model waits for the user's word, and the word is
//! better given knowing "353 MB". Files already whole in the cache count as
//! nothing to download. Nothing here posts progress: the page is not loading.

use crate::fetch::{cached_len, file_url};
use ntl_engine::shard_index::shard_names;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{RequestInit, Response};

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
async fn head(url: &str) -> Head {
    let init = RequestInit::new();
    init.set_method("HEAD");
    let Ok(resp) = JsFuture::from(super::scope().fetch_with_str_and_init(url, &init)).await else {
        return Head::Unknown;
    };
    let resp: Response = resp.unchecked_into();
    if resp.status() == 404 {
        return Head::Missing;
    }
    let len = resp
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|v| v.parse().ok());
    match (resp.ok(), len) {
        (true, Some(n)) => Head::Len(n),
        _ => Head::Unknown,
    }
}

/// One file's size: from the cache when it is whole there, else a HEAD.
async fn file_size(url: &str) -> (Head, bool) {
    match cached_len(url).await {
        Some(n) => (Head::Len(n), true),
        None => (head(url).await, false),
    }
}

async fn text(url: &str) -> Option<Vec<u8>> {
    let resp = JsFuture::from(super::scope().fetch_with_str(url))
        .await
        .ok()?;
    let resp: Response = resp.unchecked_into();
    if !resp.ok() {
        return None;
    }
    let buf = JsFuture::from(resp.array_buffer().ok()?).await.ok()?;
    Some(js_sys::Uint8Array::new(&buf).to_vec())
}

/// The weights' size under `base`: `model.safetensors`, or its shards
/// (each one's size, else the index's stated total).
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
    let index_url = file_url(base, "model.safetensors.index.json");
    let index = match cached_len(&index_url).await {
        Some(_) => crate::fetch::cached_bytes(&index_url).await,
        None => text(&index_url).await,
    };
    let Some((names, total)) = index.and_then(|i| shard_names(&i).ok()) else {
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
