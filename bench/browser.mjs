// The page's engine in headless Chromium: drives the worker the page uses,
// with the worker protocol, on a checkpoint directory, and prints the figures
// the worker reports as one JSON object (medians of RUNS). By default the page
// is cross-origin isolated and uses the threaded worker, as scripts/serve.mjs
// serves it; --single-thread measures the worker every other host gets.
// --firefox runs the same in Debian's firefox-esr; --q8 loads the
// checkpoint with 8 bits at load (its matrices as Q8_0 blocks).
//   node bench/browser.mjs MODEL_DIR|FILE.gguf [RUNS] [--single-thread] [--firefox] [--q8]   (needs dist/ from scripts/build.sh)
import { dirname, basename } from 'node:path';
import { benchPage } from './bench_page.mjs';
import { LANES, PROMPT, NEW_TOKENS, summarize } from './workload.mjs';
import { driveWorker } from '../tests/e2e/worker_client.mjs';

const args = process.argv.slice(2);
const threaded = !args.includes('--single-thread');
const firefox = args.includes('--firefox');
const q8 = args.includes('--q8');
const [modelArg, runsArg] = args.filter((a) => !a.startsWith('--'));
// A .gguf file is served from its folder and picked alone (its own tokenizer).
const gguf = modelArg.endsWith('.gguf');
const modelDir = gguf ? dirname(modelArg) : modelArg;
const names = gguf ? [basename(modelArg)] : undefined;
const RUNS = Number(runsArg || 3);
const { page, close } = await benchPage(modelDir, threaded, { firefox });
const lane = (cfg) => ({ config: { ...cfg, max_new_tokens: NEW_TOKENS, min_new_tokens: NEW_TOKENS }, forced_ids: null });
// Warm-up, then one lane and four lanes in turn, RUNS times.
const one = [lane(LANES[0])];
const four = LANES.map(lane);
const requests = [one, ...Array.from({ length: RUNS }, () => [one, four]).flat()].map((lanes) => ({ prompt: PROMPT, lanes, top_n: 20 }));
const { loaded, weightBytes, finished } = await page.evaluate(driveWorker, {
  loader: threaded ? './worker_mt_loader.js' : './worker_loader.js', modelBase: 'bench-model', requests, weights: q8 ? 'q8_0' : null, ...(names ? { names } : {}),
});
const figures = (done) => ({ ms: done.ms, first: done.first_step_ms, tokens: done.document.runs.reduce((n, r) => n + r.token_ids.length, 0), memory: done.memory_bytes });
const runs = finished.slice(1).map(figures);
const result = {
  one: runs.filter((_, i) => i % 2 === 0), four: runs.filter((_, i) => i % 2 === 1),
  load_ms: loaded.load_ms, weight_bytes: weightBytes, threads: loaded.threads, load_memory: loaded.memory_bytes,
  memory: Math.max(loaded.memory_bytes, ...runs.map((r) => r.memory)),
};
await close();

console.log(JSON.stringify({
  engine: (firefox ? 'firefox' : 'browser') + (threaded ? '' : '_single_thread') + (q8 ? '_q8_0' : ''), threads: result.threads, runs: RUNS, load_ms: result.load_ms, weight_bytes: result.weight_bytes, load_memory_bytes: result.load_memory, peak_memory_bytes: result.memory,
  four_lanes: summarize(result.four), one_lane: summarize(result.one),
}));
