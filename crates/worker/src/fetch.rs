//! Fetching model files with byte progress, through the Cache API so that a
//! second visit works offline. The Cache API stores an entry only when its
//! body arrived whole, and entries of files the engine then refuses are
//! deleted, so neither a cut-off download nor a bad file is served later.

use crate::post::post;
use js_sys::Uint8Array;
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
pub const FILES: [&str; 3] = ["config.json", "model.safetensors", "tokenizer.json"];

pub fn hub_base(repo: &str) -> String {
    format!("https://huggingface.co/{repo}/resolve/main")
}

fn file_url(base: &str, name: &str) -> String {
    format!("{}/{name}", base.trim_end_matches('/'))
}

/// The three files as JS byte arrays: the weights stay outside wasm memory
/// until the engine reads them tensor by tensor.
pub async fn model_files(base: &str) -> Result<Vec<Uint8Array>, LoadFailure> {
    let cache = open_cache().await;
    let mut out = Vec::with_capacity(3);
    for name in FILES {
        match fetch_one(&file_url(base, name), name, cache.as_ref()).await {
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
            let _ = JsFuture::from(cache.delete_with_str(&file_url(base, name))).await;
        }
    }
}

/// The Cache API exists only in secure contexts: an iframe in a plain-http
/// course page (or an opaque parent) has no `caches` at all. Then every load
/// downloads afresh instead of crashing the worker.
async fn open_cache() -> Option<Cache> {
    let caches = js_sys::Reflect::get(&super::scope(), &JsValue::from_str("caches")).ok()?;
    let caches: web_sys::CacheStorage = caches.dyn_into().ok()?;
    JsFuture::from(caches.open(CACHE))
        .await
        .ok()?
        .dyn_into()
        .ok()
}

fn fail(file: &str, message: String, network: bool) -> LoadFailure {
    LoadFailure {
        file: Some(file.into()),
        message,
        network,
    }
}

async fn fetch_one(
    url: &str,
    name: &str,
    cache: Option<&Cache>,
) -> Result<Uint8Array, LoadFailure> {
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
        .map_err(|_| {
            fail(
                name,
                format!("could not reach {url} (offline, or the host is blocked)"),
                true,
            )
        })?
        .unchecked_into();
    if !resp.ok() {
        return Err(fail(
            name,
            format!(
                "{url} answered HTTP {} {}",
                resp.status(),
                resp.status_text()
            ),
            false,
        ));
    }
    let total = resp
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|v| v.parse::<u64>().ok());
    // The browser streams a copy into the cache beside our read: no second
    // copy of the weights in wasm memory, and no entry if the body breaks off.
    let put = cache.and_then(|c| resp.clone().ok().map(|copy| c.put_with_str(url, &copy)));
    let bytes = read_body(&resp, name, total).await?;
    if let Some(t) = total {
        if (bytes.length() as u64) < t {
            return Err(fail(
                name,
                format!(
                    "the download of {name} stopped at {} of {t} bytes; try again",
                    bytes.length()
                ),
                true,
            ));
        }
    }
    if let Some(put) = put {
        let _ = JsFuture::from(put).await;
    }
    Ok(bytes)
}

/// Reads a body into one JS byte array (never through wasm memory), with progress.
async fn read_body(
    resp: &Response,
    name: &str,
    total: Option<u64>,
) -> Result<Uint8Array, LoadFailure> {
    let body = resp
        .body()
        .ok_or_else(|| fail(name, format!("{name}: the response has no body"), false))?;
    // The size is on screen as soon as the headers arrive, before the bytes.
    post(&FromWorker::Progress {
        file: name.into(),
        loaded: 0,
        total,
    });
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let chunks = js_sys::Array::new();
    let mut loaded = 0usize;
    let mut reported = 0usize;
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(|_| {
            fail(
                name,
                format!("the download of {name} broke off after {loaded} bytes; try again"),
                true,
            )
        })?;
        let done = js_sys::Reflect::get(&chunk, &JsValue::from_str("done"))
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        if let Ok(value) = js_sys::Reflect::get(&chunk, &JsValue::from_str("value")) {
            let arr = Uint8Array::new(&value);
            loaded += arr.length() as usize;
            chunks.push(&arr);
        }
        if loaded - reported > (1 << 20) {
            reported = loaded;
            post(&FromWorker::Progress {
                file: name.into(),
                loaded: loaded as u64,
                total,
            });
        }
    }
    let bytes = Uint8Array::new_with_length(loaded as u32);
    let mut at = 0u32;
    for c in chunks.iter() {
        let c: Uint8Array = c.unchecked_into();
        bytes.set(&c, at);
        at += c.length();
    }
    post(&FromWorker::Progress {
        file: name.into(),
        loaded: loaded as u64,
        total: total.or(Some(loaded as u64)),
    });
    Ok(bytes)
}
