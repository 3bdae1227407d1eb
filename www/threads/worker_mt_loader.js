// The threaded engine worker: wasm-bindgen creates its shared memory, and the
// worker's main() asks the page to start its helper threads
// (worker_mt_helper.js; see ntl_protocol::helper_threads). A failed
// start (the module missing on this host, shared memory refused) is rethrown
// outside the promise so the page sees the worker's error event and falls
// back to the single-threaded worker.
// `?cores=N` stands for navigator.hardwareConcurrency (tests run the worker as
// it runs on machines with more cores than this one).
{
  const cores = Number(new URL(self.location.href).searchParams.get("cores"));
  if (Number.isInteger(cores) && cores >= 1) self.ntlCores = cores;
}
importScripts("./worker_mt.js");
wasm_bindgen({ module_or_path: "./worker_mt_bg.wasm" }).catch((e) => setTimeout(() => { throw e; }));
