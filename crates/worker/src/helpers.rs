//! Helper threads for the threaded build of this worker (`+atomics`, loaded
//! only when the page is cross-origin isolated): web workers, started by the
//! page at this worker's request, that instantiate this same wasm module on
//! this worker's shared memory and then spend their lives in
//! `ntl_parallel::helper_loop`, taking a share of each large matrix product,
//! of GELU and of the lanes' decisions. The single-threaded build has none.

#[cfg(target_feature = "atomics")]
use wasm_bindgen::prelude::*;

/// Set on a helper's global scope before it instantiates the module, so that
/// `main` (which wasm-bindgen runs on every instance) knows not to act as the worker.
const HELPER_FLAG: &str = "ntlHelper";

/// Whether this instance is a helper rather than the worker itself.
pub fn is_helper() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &HELPER_FLAG.into())
        .map(|v| v.is_truthy())
        .unwrap_or(false)
}

/// The helpers' entry point, called by `worker_mt_helper.js`.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen]
pub fn ntl_helper_main() {
    ntl_parallel::helper_loop()
}

/// Where `worker_mt_helper.js` flags a helper that trapped (see
/// `ntl_parallel::failure_words`).
#[cfg(target_feature = "atomics")]
#[wasm_bindgen]
pub fn ntl_helper_failure_words() -> Vec<u32> {
    ntl_parallel::failure_words().to_vec()
}

/// Most threads worth having: four lanes' matrix products stop scaling once
/// memory bandwidth is shared by a few cores, and the page needs one too.
#[cfg(target_feature = "atomics")]
const MAX_THREADS: u32 = ntl_protocol::helper_threads::MAX + 1;

/// Asks whoever started this worker for `min(cores, MAX_THREADS) - 1`
/// helpers; returns how many were asked for (each counts for work once it has
/// registered with the engine). The page makes them, not this worker: see
/// `ntl_protocol::helper_threads`.
#[cfg(target_feature = "atomics")]
pub fn start() -> u32 {
    use ntl_protocol::helper_threads::{COUNT, MEMORY, MODULE};
    let cores = cores().unwrap_or(1);
    let wanted = cores.clamp(1, MAX_THREADS) - 1;
    if wanted == 0 {
        return 0;
    }
    let request = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&request, &COUNT.into(), &wanted.into());
    let _ = js_sys::Reflect::set(&request, &MODULE.into(), &wasm_bindgen::module());
    let _ = js_sys::Reflect::set(&request, &MEMORY.into(), &wasm_bindgen::memory());
    match super::scope().post_message(&request) {
        Ok(()) => wanted,
        // Without helpers the worker only runs slower.
        Err(_) => {
            web_sys::console::warn_1(&"could not ask for helper threads; running on one".into());
            0
        }
    }
}

/// The machine's cores as the browser reports them, or as the loader was told
/// (`worker_mt_loader.js?cores=N` sets `self.ntlCores`): how the tests run
/// this worker as it runs on a student's eight-core laptop.
#[cfg(target_feature = "atomics")]
fn cores() -> Option<u32> {
    let global = js_sys::global();
    let told = js_sys::Reflect::get(&global, &"ntlCores".into()).ok();
    let reported = js_sys::Reflect::get(&global, &"navigator".into())
        .and_then(|n| js_sys::Reflect::get(&n, &"hardwareConcurrency".into()))
        .ok();
    [told, reported]
        .into_iter()
        .flatten()
        .filter_map(|c| c.as_f64())
        .find(|c| c.is_finite() && *c >= 1.0)
        .map(|c| c.min(f64::from(u32::MAX)) as u32)
}

#[cfg(not(target_feature = "atomics"))]
pub fn start() -> u32 {
    0
}

/// Threads the engine has once the `started` helpers have registered (they
/// start while the model downloads, so this rarely waits; at most a few
/// seconds, after which the missing ones are not counted).
pub async fn threads(started: u32) -> u32 {
    for _ in 0..300 {
        if ntl_parallel::threads() as u32 > started {
            break;
        }
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    ntl_parallel::threads() as u32
}
