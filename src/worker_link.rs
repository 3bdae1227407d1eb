//! The page's end of the worker protocol: spawn, send, receive, terminate.

use crate::page_error::PageError;
use crate::worker_choice::Abilities;
use ntl_protocol::{helper_threads, saved_folder, FromWorker, ToWorker};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker};
use yew::Callback;

pub struct WorkerLink {
    worker: Worker,
    /// The threaded worker's helper threads, which the page starts for it.
    helpers: Rc<RefCell<Vec<Worker>>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

/// Trunk's loader shim boots the worker's wasm (no-modules build).
const WORKER_URL: &str = "./worker_loader.js";
/// The same worker built with wasm threads (`scripts/build-threaded-worker.sh`);
/// it needs shared memory, which browsers give only to cross-origin isolated pages.
const THREADED_WORKER_URL: &str = "./worker_mt_loader.js";

/// What this browser gives the threaded worker, tried rather than assumed.
pub fn abilities() -> Abilities {
    let global = js_sys::global();
    let has = |name: &str| js_sys::Reflect::get(&global, &name.into()).unwrap_or_default();
    Abilities {
        isolated: has("crossOriginIsolated").is_truthy(),
        shared_array_buffer: has("SharedArrayBuffer").is_function(),
        shared_wasm_memory: shared_wasm_memory(),
    }
}

/// Whether a one-page `shared` WebAssembly memory can be made here.
fn shared_wasm_memory() -> bool {
    let descriptor = js_sys::Object::new();
    for (key, value) in [
        ("initial", JsValue::from(1)),
        ("maximum", JsValue::from(1)),
        ("shared", JsValue::TRUE),
    ] {
        if js_sys::Reflect::set(&descriptor, &key.into(), &value).is_err() {
            return false;
        }
    }
    js_sys::WebAssembly::Memory::new(&descriptor).is_ok()
}

impl WorkerLink {
    pub fn spawn(
        threaded: bool,
        on_message: Callback<FromWorker>,
        on_crash: Callback<String>,
        on_unreadable: Callback<(Option<String>, String)>,
        on_saved: Callback<(String, Vec<u8>)>,
    ) -> Result<WorkerLink, PageError> {
        let worker = Worker::new(if threaded {
            THREADED_WORKER_URL
        } else {
            WORKER_URL
        })
        .map_err(|e| PageError::WorkerStart {
            detail: format!("{e:?}"),
        })?;
        let crash = on_crash.clone();
        let helpers = Rc::new(RefCell::new(Vec::new()));
        let started = helpers.clone();
        let on_msg = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let data = ev.data();
            match data.as_string().map(|s| FromWorker::read(&s)) {
                Some(Ok(msg)) => on_message.emit(msg),
                // One message the page cannot read is not a dead worker.
                Some(Err(u)) => on_unreadable.emit((u.kind, u.detail)),
                None => match (helpers_asked(&data), saved_folder(&data)) {
                    (Some(count), _) => started.borrow_mut().extend(start_helpers(&data, count)),
                    (None, Some(saved)) => on_saved.emit(saved),
                    (None, None) => crash.emit("unreadable message from the worker".into()),
                },
            }
        });
        let on_err = Closure::<dyn FnMut(ErrorEvent)>::new(move |ev: ErrorEvent| {
            ev.prevent_default();
            let what = ev.message();
            on_crash.emit(if what.is_empty() {
                "the model worker stopped (out of memory?)".into()
            } else {
                format!("the model worker crashed: {what}")
            });
        });
        worker.set_onmessage(Some(on_msg.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_err.as_ref().unchecked_ref()));
        Ok(WorkerLink {
            worker,
            helpers,
            _on_message: on_msg,
            _on_error: on_err,
        })
    }

    pub fn send(&self, msg: &ToWorker) {
        let _ = self.worker.post_message(&msg.to_json().into());
    }

    /// Sends a message with buffers moved (not copied) to the worker.
    pub fn send_with_buffers(&self, msg: &ToWorker, buffers: Vec<js_sys::ArrayBuffer>) {
        let list = js_sys::Array::new();
        for b in &buffers {
            list.push(b);
        }
        let obj = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&obj, &"json".into(), &msg.to_json().into());
        let _ = js_sys::Reflect::set(&obj, &"buffers".into(), &list);
        let _ = self.worker.post_message_with_transfer(&obj, &list);
    }
}

impl Drop for WorkerLink {
    fn drop(&mut self) {
        self.worker.terminate();
        // Helpers wait on the worker's memory for ever; they go with it.
        for helper in self.helpers.borrow().iter() {
            helper.terminate();
        }
    }
}

/// How many helper threads a non-JSON message from the worker asks for
/// (at most `helper_threads::MAX`), or `None` if it is not such a request.
/// The zipped model folder the worker saved: its file name and bytes.
fn saved_folder(data: &JsValue) -> Option<(String, Vec<u8>)> {
    let name = js_sys::Reflect::get(data, &saved_folder::NAME.into())
        .ok()?
        .as_string()?;
    let bytes = js_sys::Reflect::get(data, &saved_folder::BYTES.into()).ok()?;
    let bytes = bytes.dyn_into::<js_sys::ArrayBuffer>().ok()?;
    Some((name, js_sys::Uint8Array::new(&bytes).to_vec()))
}

fn helpers_asked(data: &JsValue) -> Option<u32> {
    let count = js_sys::Reflect::get(data, &helper_threads::COUNT.into())
        .ok()?
        .as_f64()?;
    (count.is_finite() && count >= 0.0).then(|| (count as u32).min(helper_threads::MAX))
}

/// Starts `count` helpers on the worker's module and shared memory. One that
/// cannot start only costs speed: the worker counts those that register.
fn start_helpers(request: &JsValue, count: u32) -> Vec<Worker> {
    let get = |field: &str| js_sys::Reflect::get(request, &field.into()).unwrap_or_default();
    let message = js_sys::Object::new();
    for field in [helper_threads::MODULE, helper_threads::MEMORY] {
        let _ = js_sys::Reflect::set(&message, &field.into(), &get(field));
    }
    let mut helpers = Vec::new();
    for _ in 0..count {
        match Worker::new(helper_threads::SCRIPT) {
            Ok(helper) if helper.post_message(&message).is_ok() => helpers.push(helper),
            Ok(helper) => helper.terminate(),
            Err(_) => {}
        }
    }
    if helpers.len() < count as usize {
        web_sys::console::warn_1(
            &format!(
                "{} of {count} helper threads could not start; the model runs on fewer",
                count as usize - helpers.len()
            )
            .into(),
        );
    }
    helpers
}
