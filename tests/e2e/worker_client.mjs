// Drives the page's engine worker with the worker protocol, without the UI:
// `driveWorker` runs inside a page (pass it to page.evaluate). It starts the
// worker at `loader`, loads the three model files from `modelBase`, runs each
// request in turn and returns the `loaded` message and every `finished` one
// (and, with `trees`, each sample tree's `tree_grown`).
// With `whatIf` ({ step, knobs: [settings, ...] }) it then asks the what-if
// sandbox about the first run's step `step`, once per knob setting, and
// returns each answer with its round trip.
// With `laneModels` ([{ name, source }]) it loads each as a lane model
// (`load_lane_model`) after the page's model, and returns each answer as
// `lanes` (a request's `lane_models` names them).
// Used by the threads test and by the browser benchmarks.
//
// Each wait has a limit (`stageMs`) and names what it was waiting for when it
// runs out, so a worker that never starts or never finishes fails the test
// with where it stopped instead of the browser driver's bare timeout.
export async function driveWorker({ loader, modelBase, requests, trees = [], laneModels = [], whatIf = null, stageMs = 120_000, weights = null, names = ['config.json', 'model.safetensors', 'tokenizer.json'] }) {
  const worker = new Worker(loader);
  // The threaded worker asks its creator for its helper threads (ntl_protocol::helper_threads).
  const helpers = [];
  const startHelpers = (ask) => {
    for (let i = 0; i < ask.helper_threads; i++) {
      const h = new Worker('./worker_mt_helper.js');
      h.postMessage({ module: ask.module, memory: ask.memory });
      helpers.push(h);
    }
  };
  const queue = [];
  let wake = null;
  worker.onmessage = (e) => {
    if (typeof e.data !== 'string') return startHelpers(e.data);
    queue.push(JSON.parse(e.data));
    if (wake) { wake(); wake = null; }
  };
  worker.onerror = (e) => { queue.push({ type: 'worker_error', message: e.message }); if (wake) { wake(); wake = null; } };
  const next = async (types, stage) => {
    const deadline = performance.now() + stageMs;
    for (;;) {
      const i = queue.findIndex((m) => types.includes(m.type) || m.type === 'worker_error');
      if (i >= 0) {
        const m = queue.splice(i, 1)[0];
        if (m.type === 'worker_error') throw new Error('the worker failed: ' + m.message);
        return m;
      }
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`the worker at ${loader} sent no ${types.join(' or ')} within ${stageMs / 1000} s (${stage})`);
      await new Promise((r) => { wake = r; setTimeout(r, left); });
    }
  };
  try {
    await next(['ready'], 'starting');
    const buffers = await Promise.all(names.map((n) => fetch(`${modelBase}/${n}`).then((r) => r.arrayBuffer())));
    const weightBytes = buffers[names.findIndex((n) => /\.(safetensors|gguf|pt)$/.test(n))].byteLength;
    worker.postMessage({ json: JSON.stringify({ type: 'load', source: { kind: 'files', names }, ...(weights ? { weights } : {}) }), buffers }, buffers);
    const loaded = await next(['loaded', 'load_failed'], 'loading the model');
    if (loaded.type !== 'loaded') throw new Error('load failed: ' + JSON.stringify(loaded.trouble));
    const lanes = [];
    for (const { name, source } of laneModels) {
      worker.postMessage(JSON.stringify({ type: 'load_lane_model', name, source }));
      lanes.push(await next(['lane_model_loaded', 'lane_model_failed'], `loading lane model ${name}`));
    }
    const finished = [];
    for (const [i, request] of requests.entries()) {
      queue.length = 0;
      worker.postMessage(JSON.stringify({ type: 'run', run_id: i + 1, request }));
      const done = await next(['finished', 'run_failed'], `request ${i}`);
      if (done.type !== 'finished') throw new Error('run failed: ' + done.message);
      finished.push(done);
    }
    // Sample trees (`ToWorker::Tree`), each grown to its end: the `tree_grown`
    // message and how many progress messages came before it.
    const grown = [];
    for (const [i, request] of trees.entries()) {
      queue.length = 0;
      worker.postMessage(JSON.stringify({ type: 'tree', run_id: 1000 + i, request }));
      const done = await next(['tree_grown', 'run_failed'], `tree ${i}`);
      if (done.type !== 'tree_grown') throw new Error('tree failed: ' + done.message);
      grown.push({ ...done, progress_messages: queue.filter((m) => m.type === 'tree_growing').length });
    }
    if (!whatIf) return { loaded, weightBytes, lanes, finished, grown };
    const doc = finished[0].document;
    const ids = [...doc.prompt_ids, ...doc.runs[0].token_ids.slice(0, whatIf.step)];
    const chosen = doc.runs[0].token_ids[whatIf.step];
    const answers = [];
    for (const [i, knobs] of whatIf.knobs.entries()) {
      const t0 = performance.now();
      worker.postMessage(JSON.stringify({ type: 'what_if', request_id: i + 1, ids, prompt_len: doc.prompt_ids.length, chosen, knobs }));
      const m = await next(['what_if', 'what_if_failed'], `what-if ${i}`);
      if (m.type !== 'what_if') throw new Error('what-if failed: ' + m.message);
      answers.push({ worker_ms: m.ms, round_trip_ms: performance.now() - t0, vocab: m.vocab });
    }
    return { loaded, weightBytes, finished, whatIf: { context: ids.length, answers } };
  } finally {
    worker.terminate();
    helpers.forEach((h) => h.terminate());
  }
}
