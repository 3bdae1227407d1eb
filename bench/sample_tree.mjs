// The sample tree's speed (issue #40): one sampling lane grown 1,000 times ×
// 8 tokens on a checkpoint (distilgpt2's shapes in scripts/bench.sh), in the
// single-threaded worker every host gets and in the threaded one, in
// headless Chromium, and natively with `decode --samples`. Prints one JSON
// object: per engine the median time, the model rows computed (one per
// distinct prefix), the branches, the worker's peak memory.
//   node bench/sample_tree.mjs MODEL_DIR [RUNS]   (needs dist/ and target/release/decode)
import { execFileSync } from 'node:child_process';
import { benchPage } from './bench_page.mjs';
import { PROMPT, median } from './workload.mjs';
import { driveWorker } from '../tests/e2e/worker_client.mjs';

const [modelDir, runsArg] = process.argv.slice(2);
const RUNS = Number(runsArg || 3);
export const SAMPLES = 1000;
export const TOKENS = 8;
// A different seed each run: the figure is the tree's typical cost, not one tree's.
const config = (seed) => ({ do_sample: true, temperature: 0.7, top_k: 0, seed });
const trees = Array.from({ length: RUNS }, (_, i) => ({
  prompt: PROMPT, lane: { config: config(i + 1), forced_ids: null }, samples: SAMPLES, tokens: TOKENS,
}));

const figures = (runs) => ({
  ms: median(runs.map((r) => r.ms)),
  ms_each: runs.map((r) => Math.round(r.ms)),
  rows: median(runs.map((r) => r.rows)),
  branches: median(runs.map((r) => r.branches)),
});

const out = { samples: SAMPLES, tokens: TOKENS, runs: RUNS, prompt: PROMPT };
for (const threaded of [false, true]) {
  const { page, close } = await benchPage(modelDir, threaded);
  const { loaded, grown } = await page.evaluate(driveWorker, {
    loader: threaded ? './worker_mt_loader.js' : './worker_loader.js', modelBase: 'bench-model', requests: [], trees, stageMs: 600_000,
  });
  await close();
  const runs = grown.map((g) => ({ ms: g.ms, rows: g.document.tree.rows, branches: g.document.tree.nodes.length, memory: g.memory_bytes }));
  out[threaded ? 'threaded' : 'single_thread'] = {
    threads: loaded.threads, ...figures(runs), peak_memory_bytes: Math.max(...runs.map((r) => r.memory)),
    progress_messages: median(grown.map((g) => g.progress_messages)),
  };
}
const decode = `${process.env.CARGO_TARGET_DIR || 'target'}/release/decode`;
const native = trees.map((t) => {
  const t0 = performance.now();
  const doc = JSON.parse(execFileSync(decode, ['--model', modelDir, '--prompt', t.prompt, '--config', JSON.stringify(t.lane.config),
    '--samples', String(SAMPLES), '--tokens', String(TOKENS), '--json'], { maxBuffer: 1 << 28 }));
  return { ms: performance.now() - t0, rows: doc.tree.rows, branches: doc.tree.nodes.length };
});
out.native = figures(native);
console.log(JSON.stringify(out));
