// The threaded engine worker: wasm-bindgen creates its shared memory, and the
// worker's main() starts the helper threads (worker_mt_helper.js).
importScripts("./worker_mt.js");
wasm_bindgen("./worker_mt_bg.wasm");
