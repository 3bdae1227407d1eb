// The what-if sandbox's cost per knob change, in the worker the page uses: a
// checkpoint loaded from MODEL_DIR, one short run for a context, then one
// what-if request that computes the step's row (a forward pass) and CHANGES
// knob changes over the kept row, each over the whole vocabulary. Prints one
// JSON object: the worker's own time per change (the `ms` it reports) and
// the round trip the page sees, medians and 90th percentiles.
//   node bench/sandbox.mjs MODEL_DIR [CHANGES] [--single-thread]   (needs dist/ from scripts/build.sh)
import { benchPage } from './bench_page.mjs';
import { PROMPT, median } from './workload.mjs';
import { driveWorker } from '../tests/e2e/worker_client.mjs';

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

const config = { do_sample: true, temperature: 0.7, top_p: 0.9, max_new_tokens: 16, min_new_tokens: 16 };
const { loaded, whatIf } = await page.evaluate(driveWorker, {
  loader: threaded ? './worker_mt_loader.js' : './worker_loader.js', modelBase: 'bench-model',
  requests: [{ prompt: PROMPT, lanes: [{ config, forced_ids: null }], top_n: 20 }],
  // The first setting computes the row; every later one moves knobs over it.
  whatIf: { step: 15, knobs: Array.from({ length: CHANGES + 1 }, (_, i) => SETTINGS[i % SETTINGS.length]) },
});
const [first, ...rest] = whatIf.answers;
const out = { threads: loaded.threads, context: whatIf.context, first, rest };
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
