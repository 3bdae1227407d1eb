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
