//! Fetching one model file as the hub really serves it: through redirects to
//! its CDN, with byte progress, retried with backoff (and a countdown on the
//! page) when the hub answers 429 or 5xx, resumed with an HTTP `Range` request
//! where a download broke off, and kept in the Cache API so a second visit
//! works offline. An entry is written only once the whole file is here, so a
//! cut-off download is never served later.

use crate::post::post;
use js_sys::Uint8Array;
use ntl_protocol::trouble::{LoadTrouble, NetTrouble, WorkerNotice};
use ntl_protocol::FromWorker;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Cache, Headers, ReadableStreamDefaultReader, RequestInit, Response, ResponseInit};

pub struct LoadFailure {
    pub file: Option<String>,
    pub trouble: LoadTrouble,
    /// The network could not be reached at all.
    pub network: bool,
}

pub fn fail(file: &str, trouble: LoadTrouble, network: bool) -> LoadFailure {
    LoadFailure {
        file: Some(file.into()),
        trouble,
        network,
    }
}

/// A failure in the worker's own words (a file that is not what it should be).
pub fn refused(file: Option<&str>, message: String) -> LoadFailure {
    LoadFailure {
        file: file.map(String::from),
        trouble: LoadTrouble::Other { message },
        network: false,
    }
}

pub enum Fetched {
    Bytes(Uint8Array),
    /// The server has no such file (404): the repo may be laid out otherwise.
    Missing,
}

/// What the progress bar shows while a file downloads: its name, and for a
/// shard of a split checkpoint the bytes before it and the whole total.
pub struct Shown {
    pub file: String,
    pub before: u64,
    pub total: Option<u64>,
}

impl Shown {
    pub fn file(name: &str) -> Shown {
        Shown {
            file: name.into(),
            before: 0,
            total: None,
        }
    }

    fn progress(&self, loaded: u64, total: Option<u64>) {
        post(&FromWorker::Progress {
            file: self.file.clone(),
            loaded: self.before + loaded,
            total: self.total.or(total.map(|t| self.before + t)),
        });
    }
}

use ntl_protocol::MODEL_CACHE as CACHE;
/// Tries of one request before giving up (the first and four retries).
const ATTEMPTS: u32 = 5;
/// The longest a `Retry-After` is honoured; longer, and we give up and say so.
const MAX_WAIT_S: u32 = 60;

pub fn file_url(base: &str, name: &str) -> String {
    format!("{}/{name}", base.trim_end_matches('/'))
}

/// Drops every cached file under `base` (after the engine refused them).
pub async fn forget(base: &str) {
    let Some(cache) = open_cache().await else {
        return;
    };
    // Cache keys are absolute; the bundled model's base is relative.
    let here = super::scope().location().href();
    let prefix = web_sys::Url::new_with_base(&file_url(base, ""), &here)
        .map(|u| u.href())
        .unwrap_or_else(|_| file_url(base, ""));
    let Ok(keys) = JsFuture::from(cache.keys()).await else {
        return;
    };
    for req in js_sys::Array::from(&keys).iter() {
        let Ok(req) = req.dyn_into::<web_sys::Request>() else {
            continue;
        };
        if req.url().starts_with(&prefix) {
            let _ = JsFuture::from(cache.delete_with_request(&req)).await;
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

/// One file: from the cache when it is there whole, else downloaded. Two
/// tabs asking for the same file take turns (a Web Lock per URL), so the
/// second finds the first one's download in the cache instead of fetching
/// the same 350 MB again.
pub async fn fetch_file(url: &str, shown: &Shown) -> Result<Fetched, LoadFailure> {
    let lock = FileLock::take(url, || {
        post(&FromWorker::Waiting {
            file: shown.file.clone(),
        })
    })
    .await;
    let out = fetch_file_locked(url, shown).await;
    drop(lock);
    out
}

/// Holds `navigator.locks`' lock named for a URL until dropped. Where the
/// browser has no Web Locks (an insecure context), nothing is held.
struct FileLock {
    release: Option<js_sys::Function>,
}

impl FileLock {
    /// `on_wait` runs when another tab (or worker) holds the lock now.
    async fn take(url: &str, on_wait: impl FnOnce()) -> FileLock {
        let navigator = js_sys::Reflect::get(&super::scope(), &"navigator".into())
            .unwrap_or(JsValue::UNDEFINED);
        let locks = js_sys::Reflect::get(&navigator, &"locks".into())
            .ok()
            .filter(|l| l.is_object());
        let request = locks.as_ref().and_then(|l| {
            js_sys::Reflect::get(l, &"request".into())
                .ok()?
                .dyn_into::<js_sys::Function>()
                .ok()
        });
        let (Some(locks), Some(request)) = (locks, request) else {
            return FileLock { release: None };
        };
        // The lock is held while the promise the callback returns is
        // pending; we resolve it (release) when the file is done.
        let mut release = None;
        let held = js_sys::Promise::new(&mut |resolve, _| release = Some(resolve));
        let mut granted = None;
        let acquired = js_sys::Promise::new(&mut |resolve, _| granted = Some(resolve));
        let granted = granted.expect("Promise runs its executor at once");
        let on_grant = wasm_bindgen::closure::Closure::once_into_js(move |_lock: JsValue| {
            let _ = granted.call0(&JsValue::NULL);
            held
        });
        let name_str = format!("ntl-model-file {url}");
        let name = JsValue::from_str(&name_str);
        if request.call2(&locks, &name, &on_grant).is_err() {
            return FileLock { release: None };
        }
        if held_elsewhere(&locks, &name_str).await {
            on_wait();
        }
        let _ = JsFuture::from(acquired).await;
        FileLock { release }
    }
}

/// Whether `navigator.locks.query()` lists `name` as held (by anyone: our
/// own request is at most pending until the holder lets go).
async fn held_elsewhere(locks: &JsValue, name: &str) -> bool {
    let query = js_sys::Reflect::get(locks, &"query".into())
        .ok()
        .and_then(|q| q.dyn_into::<js_sys::Function>().ok());
    let Some(promise) = query
        .and_then(|q| q.call0(locks).ok())
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
    else {
        return false;
    };
    let Ok(state) = JsFuture::from(promise).await else {
        return false;
    };
    let held = js_sys::Reflect::get(&state, &"held".into()).unwrap_or(JsValue::UNDEFINED);
    js_sys::Array::from(&held).iter().any(|l| {
        js_sys::Reflect::get(&l, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .is_some_and(|n| n == name)
    })
}

impl Drop for FileLock {
    fn drop(&mut self) {
        if let Some(release) = self.release.take() {
            let _ = release.call0(&JsValue::NULL);
        }
    }
}

async fn fetch_file_locked(url: &str, shown: &Shown) -> Result<Fetched, LoadFailure> {
    let cache = open_cache().await;
    if let Some(cache) = &cache {
        if let Some(known) = cached(cache, url, shown).await {
            return Ok(known);
        }
    }
    let fetched = download(url, shown).await?;
    match (&cache, &fetched) {
        (Some(cache), Fetched::Bytes(bytes)) => keep(cache, url, bytes).await,
        (Some(cache), Fetched::Missing) => keep_missing(cache, url).await,
        (None, _) => {}
    }
    Ok(fetched)
}

/// Marks a cache entry that stands for "the server has no such file", so a
/// second visit knows it without the network (an optional file such as
/// tokenizer_config.json must not keep a cached model from loading offline).
const MISSING: &str = "x-ntl-missing";

/// The entry for `url` if it holds a file (not a missing mark).
async fn hit(cache: &Cache, url: &str) -> Option<Response> {
    let hit = JsFuture::from(cache.match_with_str(url)).await.ok()?;
    let resp = hit.dyn_into::<Response>().ok()?;
    header(&resp, MISSING).is_none().then_some(resp)
}

async fn keep_missing(cache: &Cache, url: &str) {
    let headers = Headers::new().expect("Headers");
    let _ = headers.set(MISSING, "1");
    let _ = headers.set("content-length", "0");
    let init = ResponseInit::new();
    init.set_headers(&headers);
    if let Ok(resp) = Response::new_with_opt_str_and_init(None, &init) {
        let _ = JsFuture::from(cache.put_with_str(url, &resp)).await;
    }
}

/// The size of a file that is whole in the cache (`keep` wrote its length).
pub async fn cached_len(url: &str) -> Option<u64> {
    let cache = open_cache().await?;
    let resp = hit(&cache, url).await?;
    header(&resp, "content-length").and_then(|v| v.parse().ok())
}

/// A small cached file's bytes, read without a progress bar.
pub async fn cached_bytes(url: &str) -> Option<Vec<u8>> {
    let cache = open_cache().await?;
    response_bytes(hit(&cache, url).await?).await
}

/// A small response's whole body, without a progress bar.
pub async fn response_bytes(resp: Response) -> Option<Vec<u8>> {
    let buf = JsFuture::from(resp.array_buffer().ok()?).await.ok()?;
    Some(Uint8Array::new(&buf).to_vec())
}

/// A HEAD request (through the hub's redirect); `None` if the network failed.
pub async fn head(url: &str) -> Option<Response> {
    let init = RequestInit::new();
    init.set_method("HEAD");
    let resp = JsFuture::from(super::scope().fetch_with_str_and_init(url, &init))
        .await
        .ok()?;
    Some(resp.unchecked_into())
}

async fn cached(cache: &Cache, url: &str, shown: &Shown) -> Option<Fetched> {
    let hit = JsFuture::from(cache.match_with_str(url)).await.ok()?;
    let resp = hit.dyn_into::<Response>().ok()?;
    if header(&resp, MISSING).is_some() {
        return Some(Fetched::Missing);
    }
    let total = header(&resp, "content-length").and_then(|v| v.parse().ok());
    let mut body = Body::new(total);
    body.read(&resp, shown).await.ok()?;
    (total.is_none_or(|t| body.loaded == t)).then(|| Fetched::Bytes(body.bytes()))
}

/// Stores a small file the worker fetched itself (a repo's listing).
pub async fn keep_small(url: &str, bytes: &[u8]) {
    if let Some(cache) = open_cache().await {
        keep(&cache, url, &Uint8Array::from(bytes)).await;
    }
}

/// Stores a whole file. A full disk (`QuotaExceededError`) leaves the model
/// running from memory, and the page says it will download again next time.
async fn keep(cache: &Cache, url: &str, bytes: &Uint8Array) {
    let headers = Headers::new().expect("Headers");
    let _ = headers.set("content-type", "application/octet-stream");
    let _ = headers.set("content-length", &bytes.length().to_string());
    let init = ResponseInit::new();
    init.set_headers(&headers);
    let Ok(resp) = Response::new_with_opt_buffer_source_and_init(Some(bytes), &init) else {
        return;
    };
    if let Err(e) = JsFuture::from(cache.put_with_str(url, &resp)).await {
        let name = js_sys::Reflect::get(&e, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .unwrap_or_default();
        let notice = if name == "QuotaExceededError" {
            WorkerNotice::StorageFull
        } else {
            WorkerNotice::StorageRefused
        };
        post(&FromWorker::Notice { notice });
    }
}

pub fn header(resp: &Response, name: &str) -> Option<String> {
    resp.headers().get(name).ok().flatten()
}

/// `Content-Range: bytes START-END/TOTAL` → (START, TOTAL).
fn content_range(resp: &Response) -> Option<(u64, Option<u64>)> {
    let v = header(resp, "content-range")?;
    let (range, total) = v.strip_prefix("bytes ")?.split_once('/')?;
    let start = range.split_once('-')?.0.trim().parse().ok()?;
    Some((start, total.trim().parse().ok()))
}

fn backoff(failures: u32) -> u32 {
    1 << (failures - 1).min(4)
}

async fn sleep(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

/// Waits `seconds`, telling the page each second what it waits for.
async fn wait(shown: &Shown, why: &NetTrouble, seconds: u32, attempt: u32) {
    for left in (1..=seconds).rev() {
        post(&FromWorker::Retrying {
            file: shown.file.clone(),
            why: why.clone(),
            seconds: left,
            attempt,
            attempts: ATTEMPTS,
        });
        sleep(1000).await;
    }
}

/// A GET, from byte `from` on when it is not 0.
pub async fn request(url: &str, from: u64) -> Result<Response, JsValue> {
    let init = RequestInit::new();
    if from > 0 {
        let headers = Headers::new()?;
        // A single open range is a CORS-safelisted header: no preflight.
        headers.set("range", &format!("bytes={from}-"))?;
        init.set_headers(&headers);
    }
    let resp = JsFuture::from(super::scope().fetch_with_str_and_init(url, &init)).await?;
    Ok(resp.unchecked_into())
}

async fn download(url: &str, shown: &Shown) -> Result<Fetched, LoadFailure> {
    let name = shown.file.as_str();
    let mut body = Body::new(None);
    let mut etag: Option<String> = None;
    // Failed tries in a row; a try that brings bytes resets it.
    let mut failures = 0u32;
    loop {
        let give_up = |failures: u32, why: NetTrouble| -> Result<(), LoadFailure> {
            if failures >= ATTEMPTS {
                Err(fail(
                    name,
                    LoadTrouble::GaveUp {
                        why,
                        attempts: ATTEMPTS,
                    },
                    true,
                ))
            } else {
                Ok(())
            }
        };
        let resp = match request(url, body.loaded).await {
            Ok(r) => r,
            // Nothing arrived yet and the very first request failed: offline,
            // or the host is blocked. Say so at once (the page offers the
            // bundled model) rather than counting down.
            Err(_) if failures == 0 && body.loaded == 0 && etag.is_none() => {
                return Err(fail(
                    name,
                    LoadTrouble::Unreachable { url: url.into() },
                    true,
                ))
            }
            Err(_) => {
                failures += 1;
                let why = NetTrouble::ConnectionFailed;
                give_up(failures, why.clone())?;
                wait(shown, &why, backoff(failures), failures + 1).await;
                continue;
            }
        };
        let status = resp.status();
        match status {
            200 | 206 => {}
            404 => return Ok(Fetched::Missing),
            401 | 403 => {
                return Err(fail(
                    name,
                    LoadTrouble::Private {
                        url: url.into(),
                        status,
                    },
                    false,
                ))
            }
            429 | 500..=599 => {
                failures += 1;
                let why = NetTrouble::HubAnswered {
                    status,
                    text: resp.status_text(),
                };
                give_up(failures, why.clone())?;
                let asked = header(&resp, "retry-after").and_then(|v| v.trim().parse::<u32>().ok());
                if asked.is_some_and(|s| s > MAX_WAIT_S) {
                    return Err(fail(
                        name,
                        LoadTrouble::WaitTooLong {
                            why,
                            seconds: asked.unwrap_or(0),
                        },
                        true,
                    ));
                }
                wait(
                    shown,
                    &why,
                    asked.unwrap_or(backoff(failures)).max(1),
                    failures + 1,
                )
                .await;
                continue;
            }
            _ => {
                return Err(fail(
                    name,
                    LoadTrouble::Answered {
                        url: url.into(),
                        status,
                        text: resp.status_text(),
                    },
                    false,
                ))
            }
        }
        let this_etag = header(&resp, "etag");
        let length = header(&resp, "content-length").and_then(|v| v.parse::<u64>().ok());
        if status == 206 {
            let (start, total) = content_range(&resp).unwrap_or((body.loaded, None));
            let changed = etag.is_some() && this_etag.is_some() && etag != this_etag;
            if start != body.loaded || changed {
                // Another file under the same name, or the wrong bytes: start over.
                body = Body::new(None);
                etag = None;
                continue;
            }
            body.total = total.or(length.map(|l| body.loaded + l)).or(body.total);
        } else {
            // A whole file: the first answer, or a server that cannot resume.
            if body.loaded > 0 {
                post(&FromWorker::Notice {
                    notice: WorkerNotice::NoResume { file: name.into() },
                });
            }
            body = Body::new(length);
        }
        etag = this_etag.or(etag);
        let before = body.loaded;
        let outcome = body.read(&resp, shown).await;
        if body.loaded > before {
            failures = 0;
        }
        let whole = match body.total {
            Some(t) => body.loaded >= t,
            None => outcome.is_ok(),
        };
        if whole {
            return Ok(Fetched::Bytes(body.bytes()));
        }
        failures += 1;
        let broke = |resuming| NetTrouble::BrokeOff {
            file: name.into(),
            loaded_mb: body.loaded >> 20,
            total_mb: body.total.map(|t| t >> 20),
            resuming,
        };
        give_up(failures, broke(false))?;
        wait(shown, &broke(body.loaded > 0), 1, failures + 1).await;
    }
}

/// A body arriving in chunks, kept as JS arrays (never in wasm memory).
struct Body {
    chunks: js_sys::Array,
    loaded: u64,
    total: Option<u64>,
}

impl Body {
    fn new(total: Option<u64>) -> Body {
        Body {
            chunks: js_sys::Array::new(),
            loaded: 0,
            total,
        }
    }

    /// Appends what `resp` brings; `Err` when the stream broke off.
    async fn read(&mut self, resp: &Response, shown: &Shown) -> Result<(), ()> {
        let body = resp.body().ok_or(())?;
        // The size is on screen as soon as the headers arrive, before the bytes.
        shown.progress(self.loaded, self.total);
        let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
        let mut reported = self.loaded;
        loop {
            let chunk = JsFuture::from(reader.read()).await.map_err(|_| ())?;
            let done = js_sys::Reflect::get(&chunk, &JsValue::from_str("done"))
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(true);
            if done {
                break;
            }
            if let Ok(value) = js_sys::Reflect::get(&chunk, &JsValue::from_str("value")) {
                let arr = Uint8Array::new(&value);
                self.loaded += arr.length() as u64;
                self.chunks.push(&arr);
            }
            if self.loaded - reported > (1 << 20) {
                reported = self.loaded;
                shown.progress(self.loaded, self.total);
            }
        }
        shown.progress(self.loaded, self.total.or(Some(self.loaded)));
        Ok(())
    }

    fn bytes(&self) -> Uint8Array {
        let bytes = Uint8Array::new_with_length(self.loaded as u32);
        let mut at = 0u32;
        for c in self.chunks.iter() {
            let c: Uint8Array = c.unchecked_into();
            bytes.set(&c, at);
            at += c.length();
        }
        bytes
    }
}
