// The worker's wasm memory after loading a file and after each of a series
// of runs of the four default lanes (1, 16, 32, 64, 64, 64 and 128 new tokens).
// wasm memory never shrinks, so each figure is the peak so far; the three
// 64-token runs show whether a run of one length keeps growing it.
//   node bench/memory.mjs MODEL_DIR/FILE.gguf [--single-thread]   (needs dist/ from scripts/build.sh)
import { dirname, basename } from 'node:path';
import { benchPage } from './bench_page.mjs';
import { LANES, PROMPT } from './workload.mjs';
import { driveWorker } from '../tests/e2e/worker_client.mjs';
const args = process.argv.slice(2);
const threaded = !args.includes('--single-thread');
const [modelArg] = args.filter((a) => !a.startsWith('--'));
const gguf = modelArg.endsWith('.gguf');
const { page, close } = await benchPage(gguf ? dirname(modelArg) : modelArg, threaded);
const lane = (cfg, n) => ({ config: { ...cfg, max_new_tokens: n, min_new_tokens: n }, forced_ids: null });
const lens = [1, 16, 32, 64, 64, 64, 128];
const requests = lens.map((n) => ({ prompt: PROMPT, lanes: LANES.map((c) => lane(c, n)), top_n: 20 }));
const { loaded, finished } = await page.evaluate(driveWorker, { loader: threaded ? './worker_mt_loader.js' : './worker_loader.js', modelBase: 'bench-model', requests, ...(gguf ? { names: [basename(modelArg)] } : {}) });
console.log(JSON.stringify({ file: basename(modelArg), threads: loaded.threads, loaded_mb: +(loaded.memory_bytes / 1e6).toFixed(1), after_runs_mb: finished.map((f, i) => ({ tokens: lens[i], mb: +(f.memory_bytes / 1e6).toFixed(1) })) }));
await close();
