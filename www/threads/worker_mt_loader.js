// The threaded engine worker: wasm-bindgen creates its shared memory, and the
// worker's main() starts the helper threads (worker_mt_helper.js). A failed
// start (the module missing on this host, shared memory refused) is rethrown
// outside the promise so the page sees the worker's error event and falls
// back to the single-threaded worker.
importScripts("./worker_mt.js");
wasm_bindgen({ module_or_path: "./worker_mt_bg.wasm" }).catch((e) => setTimeout(() => { throw e; }));
