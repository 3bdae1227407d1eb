// A helper thread of the threaded engine worker: the same wasm module on the
// worker's shared memory, working on shares of its matrix products for ever.
importScripts("./worker_mt.js");
self.ntlHelper = true; // tells the module's main() that this is not the worker
self.onmessage = (event) => {
  self.onmessage = null;
  wasm_bindgen.initSync({ module: event.data.module, memory: event.data.memory });
  wasm_bindgen.ntl_helper_main();
};
