// The what-if sandbox's cost per knob change, in the worker the page uses: a
// checkpoint loaded from MODEL_DIR, one short run for a context, then one
// what-if request that computes the step's row (a forward pass) and CHANGES
// knob changes over the kept row, each over the whole vocabulary. Prints one
// JSON object: the worker's own time per change (the `ms` it reports) and
// the round trip the page sees, medians and 90th percentiles.
//   node bench/sandbox.mjs MODEL_DIR [CHANGES] [--single-thread]   (needs dist/ from scripts/build.sh)
import { benchPage } from './bench_page.mjs';
import { PROMPT, median } from './workload.mjs';

const args = process.argv.slice(2);
const threaded = !args.includes('--single-thread');
const [modelDir, changesArg] = args.filter((a) => !a.startsWith('--'));
const CHANGES = Number(changesArg || 40);

// What a student does: one knob after another, over and over.
const SETTINGS = [
  [['temperature', 0.7], ['top_k', 50], ['top_p', 0.9]],
  [['temperature', 1.3], ['top_k', 50], ['top_p', 0.9]],
  [['top_k', 5]],
  [['min_p', 0.05]],
  [['typical_p', 0.9]],
  [['repetition_penalty', 1.3], ['temperature', 0.8]],
  [['epsilon_cutoff', 0.0003], ['eta_cutoff', 0.0003]],
];

const { page, close } = await benchPage(modelDir, threaded);

const out = await page.evaluate(async ({ loader, prompt, settings, changes }) => {
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
  const next = async (types) => {
    for (;;) {
      const i = queue.findIndex((m) => types.includes(m.type));
      if (i >= 0) return queue.splice(i, 1)[0];
      await new Promise((r) => { wake = r; });
    }
  };
  await next(['ready']);
  const names = ['config.json', 'model.safetensors', 'tokenizer.json'];
  const buffers = await Promise.all(names.map((n) => fetch(`bench-model/${n}`).then((r) => r.arrayBuffer())));
  worker.postMessage({ json: JSON.stringify({ type: 'load', source: { kind: 'files', names } }), buffers }, buffers);
  const loaded = await next(['loaded', 'load_failed']);
  if (loaded.type !== 'loaded') throw new Error(loaded.message);
  const config = { do_sample: true, temperature: 0.7, top_p: 0.9, max_new_tokens: 16, min_new_tokens: 16 };
  worker.postMessage(JSON.stringify({ type: 'run', run_id: 1, request: { prompt, lanes: [{ config, forced_ids: null }], top_n: 20 } }));
  const done = await next(['finished', 'run_failed']);
  if (done.type !== 'finished') throw new Error(done.message);
  const ids = [...done.document.prompt_ids, ...done.document.runs[0].token_ids.slice(0, 15)];
  const chosen = done.document.runs[0].token_ids[15];
  const ask = async (id, knobs) => {
    const t0 = performance.now();
    worker.postMessage(JSON.stringify({ type: 'what_if', request_id: id, ids, prompt_len: done.document.prompt_ids.length, chosen, knobs }));
    const m = await next(['what_if', 'what_if_failed']);
    if (m.type !== 'what_if') throw new Error(m.message);
    return { worker_ms: m.ms, round_trip_ms: performance.now() - t0, vocab: m.vocab };
  };
  const first = await ask(1, settings[0]);
  const rest = [];
  for (let i = 0; i < changes; i++) rest.push(await ask(i + 2, settings[(i + 1) % settings.length]));
  worker.terminate();
  helpers.forEach((h) => h.terminate());
  return { threads: loaded.threads, context: ids.length, first, rest };
}, { loader: threaded ? './worker_mt_loader.js' : './worker_loader.js', prompt: PROMPT, settings: SETTINGS, changes: CHANGES });
await close();

const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];
const worker = out.rest.map((r) => r.worker_ms);
const trip = out.rest.map((r) => r.round_trip_ms);
console.log(JSON.stringify({
  engine: threaded ? 'browser' : 'browser_single_thread', threads: out.threads, vocab: out.first.vocab, context_tokens: out.context, changes: CHANGES,
  first_ms: out.first.worker_ms,
  change_ms: { median: median(worker), p90: p90(worker) },
  round_trip_ms: { median: median(trip), p90: p90(trip) },
}));
