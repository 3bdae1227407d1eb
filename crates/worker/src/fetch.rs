//! Fetching model files with byte progress, through the Cache API so that a
//! second visit works offline. The Cache API stores an entry only when its
//! body arrived whole, and entries of files the engine then refuses are
//! deleted, so neither a cut-off download nor a bad file is served later.

use crate::post::post;
use ntl_protocol::FromWorker;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Cache, ReadableStreamDefaultReader, Response};

pub struct LoadFailure {
    pub file: Option<String>,
    pub message: String,
    /// The network could not be reached at all.
    pub network: bool,
}

const CACHE: &str = "ntl-models-v1";

pub fn hub_base(repo: &str) -> String {
    format!("https://huggingface.co/{repo}/resolve/main")
}
pub const FILES: [&str; 3] = ["config.json", "model.safetensors", "tokenizer.json"];

pub async fn model_files(base: &str) -> Result<Vec<Vec<u8>>, LoadFailure> {
    let cache = open_cache().await;
    let mut out = Vec::with_capacity(3);
    for name in FILES {
        let url = format!("{}/{name}", base.trim_end_matches('/'));
        match fetch_one(&url, name, cache.as_ref()).await {
            Ok(bytes) => out.push(bytes),
            Err(e) => {
                forget(base).await;
                return Err(e);
            }
        }
    }
    Ok(out)
}

/// Drops the cached files of `base` (after the engine refused them).
pub async fn forget(base: &str) {
    if let Some(cache) = open_cache().await {
        for name in FILES {
            let _ = JsFuture::from(cache.delete_with_str(&format!("{}/{name}", base.trim_end_matches('/')))).await;
        }
    }
}

/// The Cache API exists only in secure contexts: an iframe in a plain-http
/// course page (or an opaque parent) has no `caches` at all. Then every load
/// downloads afresh instead of crashing the worker.
async fn open_cache() -> Option<Cache> {
    let caches = js_sys::Reflect::get(&super::scope(), &JsValue::from_str("caches")).ok()?;
    let caches: web_sys::CacheStorage = caches.dyn_into().ok()?;
    JsFuture::from(caches.open(CACHE)).await.ok()?.dyn_into().ok()
}

fn fail(file: &str, message: String, network: bool) -> LoadFailure {
    LoadFailure { file: Some(file.into()), message, network }
}

async fn fetch_one(url: &str, name: &str, cache: Option<&Cache>) -> Result<Vec<u8>, LoadFailure> {
    if let Some(cache) = cache {
        if let Ok(hit) = JsFuture::from(cache.match_with_str(url)).await {
            if let Ok(resp) = hit.dyn_into::<Response>() {
                if let Ok(bytes) = read_body(&resp, name, None).await {
                    return Ok(bytes);
                }
            }
        }
    }
    let resp: Response = JsFuture::from(super::scope().fetch_with_str(url))
        .await
        .map_err(|_| fail(name, format!("could not reach {url} (offline, or the host is blocked)"), true))?
        .unchecked_into();
    if !resp.ok() {
        return Err(fail(name, format!("{url} answered HTTP {} {}", resp.status(), resp.status_text()), false));
    }
    let total = resp.headers().get("content-length").ok().flatten().and_then(|v| v.parse::<u64>().ok());
    // The browser streams a copy into the cache beside our read: no second
    // copy of the weights in wasm memory, and no entry if the body breaks off.
    let put = cache.and_then(|c| resp.clone().ok().map(|copy| c.put_with_str(url, &copy)));
    let bytes = read_body(&resp, name, total).await?;
    if let Some(t) = total {
        if (bytes.len() as u64) < t {
            return Err(fail(name, format!("the download of {name} stopped at {} of {t} bytes; try again", bytes.len()), true));
        }
    }
    if let Some(put) = put {
        let _ = JsFuture::from(put).await;
    }
    Ok(bytes)
}

async fn read_body(resp: &Response, name: &str, total: Option<u64>) -> Result<Vec<u8>, LoadFailure> {
    let body = resp.body().ok_or_else(|| fail(name, format!("{name}: the response has no body"), false))?;
    // The size is on screen as soon as the headers arrive, before the bytes.
    post(&FromWorker::Progress { file: name.into(), loaded: 0, total });
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes = Vec::with_capacity(total.unwrap_or(0).min(2 << 30) as usize);
    let mut reported = 0usize;
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|_| fail(name, format!("the download of {name} broke off after {} bytes; try again", bytes.len()), true))?;
        let done = js_sys::Reflect::get(&chunk, &JsValue::from_str("done")).ok().and_then(|v| v.as_bool()).unwrap_or(true);
        if done {
            break;
        }
        if let Ok(value) = js_sys::Reflect::get(&chunk, &JsValue::from_str("value")) {
            let arr = js_sys::Uint8Array::new(&value);
            let start = bytes.len();
            bytes.resize(start + arr.length() as usize, 0);
            arr.copy_to(&mut bytes[start..]);
        }
        if bytes.len() - reported > (1 << 20) {
            reported = bytes.len();
            post(&FromWorker::Progress { file: name.into(), loaded: bytes.len() as u64, total });
        }
    }
    post(&FromWorker::Progress { file: name.into(), loaded: bytes.len() as u64, total: total.or(Some(bytes.len() as u64)) });
    Ok(bytes)
}
