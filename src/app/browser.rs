//! What the page's component asks of the browser: a timer, the clock, the
//! device's memory, and a recorded run read from a picked file.

use crate::page_error::PageError;
use ntl_decoding::Document;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::Callback;

/// The largest recorded run the page reads back (a long four-lane run with
/// 20-row tables is a few MB).
const MAX_REPLAY_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// Calls `then` once, `ms` milliseconds from now.
pub fn after(ms: u32, then: Callback<()>) {
    let call = Closure::once_into_js(move || then.emit(()));
    if let Some(window) = web_sys::window() {
        let _ = window
            .set_timeout_with_callback_and_timeout_and_arguments_0(call.unchecked_ref(), ms as i32);
    }
}

pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Reads a recorded run (an exported JSON) from a file the user picked.
pub fn read_recording(
    file: web_sys::File,
    done: Callback<Result<(String, Document), PageError>>,
) -> Result<(), PageError> {
    let name = file.name();
    if file.size() > MAX_REPLAY_BYTES {
        return Err(PageError::RecordingTooLarge {
            name,
            mb: file.size() / 1e6,
            max_mb: MAX_REPLAY_BYTES / 1e6,
        });
    }
    wasm_bindgen_futures::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|v| v.as_string());
        done.emit(match text {
            None => Err(PageError::ReadFile { name }),
            Some(t) => match serde_json::from_str::<Document>(&t) {
                Ok(d) => Ok((name, d)),
                Err(source) => Err(PageError::NotARecording { name, source }),
            },
        });
    });
    Ok(())
}

/// `navigator.deviceMemory`: the device's RAM in GB, rounded (Chromium; other
/// browsers do not say).
pub fn device_memory_gb() -> Option<f64> {
    let navigator = web_sys::window()?.navigator();
    js_sys::Reflect::get(&navigator, &"deviceMemory".into())
        .ok()?
        .as_f64()
}

/// Where the reader's choice of language is kept on this site.
const LANGUAGE_KEY: &str = "ntl-lang";

/// `navigator.languages`: the reader's languages, most wanted first.
pub fn browser_languages() -> Vec<String> {
    web_sys::window()
        .map(|w| w.navigator().languages())
        .map(|list| list.iter().filter_map(|v| v.as_string()).collect())
        .unwrap_or_default()
}

/// The language the reader picked on this site before (storage may be off).
pub fn stored_language() -> Option<String> {
    let storage = web_sys::window()?.local_storage().ok()??;
    storage.get_item(LANGUAGE_KEY).ok()?
}

/// Keeps the reader's pick for their next visit, and makes the document
/// say its language (screen readers, fonts, hyphenation follow `lang`).
pub fn use_language(tag: &str, remember: bool) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if remember {
        if let Ok(Some(storage)) = window.local_storage() {
            let _ = storage.set_item(LANGUAGE_KEY, tag);
        }
    }
    if let Some(root) = window.document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("lang", tag);
    }
}

/// Asks the reader yes or no (the browser's own dialog); no when it cannot ask.
pub fn confirm(question: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.confirm_with_message(question).ok())
        .unwrap_or(false)
}

/// Where the lesson being written is kept on this site between visits.
const DRAFT_KEY: &str = "ntl-lesson-draft";

/// The lesson a teacher was writing here last time (storage may be off).
pub fn kept_draft() -> Option<String> {
    let storage = web_sys::window()?.local_storage().ok()??;
    storage.get_item(DRAFT_KEY).ok()?
}

/// Keeps the lesson being written (`None`: forgets it); whether the
/// browser did (a draft with long runs may not fit in its storage).
pub fn keep_draft(json: Option<&str>) -> bool {
    let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else {
        return false;
    };
    match json {
        Some(json) => storage.set_item(DRAFT_KEY, json).is_ok(),
        None => storage.remove_item(DRAFT_KEY).is_ok(),
    }
}

/// Fetches `url` (on this site) as bytes, at most `max` of them.
pub fn fetch_bytes(url: String, max: usize, done: Callback<Result<Vec<u8>, PageError>>) {
    wasm_bindgen_futures::spawn_local(async move {
        done.emit(fetch(&url, max).await);
    });
}

pub(super) async fn fetch(url: &str, max: usize) -> Result<Vec<u8>, PageError> {
    use wasm_bindgen_futures::JsFuture;
    let failed = |why: String| PageError::Fetch {
        url: url.to_string(),
        why,
    };
    let window = web_sys::window().ok_or_else(|| failed("no window".into()))?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| failed(js_words(&e)))?
        .dyn_into()
        .map_err(|_| failed("not a response".into()))?;
    if !response.ok() {
        return Err(PageError::FetchStatus {
            url: url.to_string(),
            status: response.status(),
            text: response.status_text(),
        });
    }
    let too_large = || PageError::FetchTooLarge {
        url: url.to_string(),
        max_mb: max / (1024 * 1024),
    };
    let declared = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|n| n.parse::<usize>().ok());
    if declared.is_some_and(|n| n > max) {
        return Err(too_large());
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(|e| failed(js_words(&e)))?)
        .await
        .map_err(|e| failed(js_words(&e)))?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    if bytes.len() > max {
        return Err(too_large());
    }
    Ok(bytes)
}

/// A JS exception's message, as the browser words it.
fn js_words(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the network request failed".into())
}

/// A fetched recording as a run document.
pub fn recording(url: &str, bytes: Result<Vec<u8>, PageError>) -> Result<Document, PageError> {
    let bytes = bytes?;
    serde_json::from_slice(&bytes).map_err(|source| PageError::NotARecording {
        name: url.to_string(),
        source,
    })
}

/// Reads a lesson file the user picked or dropped.
pub fn read_lesson(file: web_sys::File, done: Callback<Result<(String, Vec<u8>), PageError>>) {
    let name = file.name();
    let max = ntl_protocol::lesson::MAX_LESSON_BYTES;
    if file.size() > max as f64 {
        let size = file.size() as usize;
        done.emit(Err(ntl_protocol::lesson::LessonError::TooLarge(size).into()));
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let buffer = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await;
        done.emit(match buffer {
            Ok(b) => Ok((name, js_sys::Uint8Array::new(&b).to_vec())),
            Err(_) => Err(PageError::ReadFile { name }),
        });
    });
}
