// A helper thread of the threaded engine worker, started by the page at the
// worker's request: the same wasm module on the worker's shared memory,
// working on shares of its matrix products for ever.
importScripts("./worker_mt.js");
self.ntlHelper = true; // tells the module's main() that this is not the worker
self.onmessage = (event) => {
  self.onmessage = null;
  const { module, memory } = event.data;
  wasm_bindgen.initSync({ module, memory });
  const [failed, done] = wasm_bindgen.ntl_helper_failure_words();
  try {
    wasm_bindgen.ntl_helper_main();
  } catch (e) {
    // A trap: the worker waits for this helper's parts, which will never come.
    // Flag it and wake the worker, which then stops with an error the page shows.
    const words = new Int32Array(memory.buffer);
    Atomics.store(words, failed >> 2, 1);
    Atomics.notify(words, done >> 2);
    throw e;
  }
};
