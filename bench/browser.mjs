// The page's engine in headless Chromium: drives the worker the page uses,
// with the worker protocol, on a checkpoint directory, and prints the figures
// the worker reports as one JSON object (medians of RUNS).
//   node bench/browser.mjs MODEL_DIR [RUNS]      (needs dist/ from scripts/build.sh)
import { mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { serve } from '../scripts/serve.mjs';
import { LANES, PROMPT, NEW_TOKENS, median } from './workload.mjs';

const require = createRequire(join(process.cwd(), 'tests/e2e/package.json'));
const { chromium } = require('playwright-core');
const [modelDir, runsArg] = process.argv.slice(2);
const RUNS = Number(runsArg || 3);
const dist = resolve('dist');

// A throwaway site: the built page's files, the checkpoint, an empty page.
const site = mkdtempSync(join(tmpdir(), 'ntl-bench-'));
for (const f of readdirSync(dist)) symlinkSync(join(dist, f), join(site, f));
symlinkSync(resolve(modelDir), join(site, 'bench-model'));
writeFileSync(join(site, 'bench.html'), '<!doctype html><title>bench</title>');
const server = await serve(site, 0);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage();
await page.goto(base + 'bench.html');
const lane = (cfg) => ({ config: { ...cfg, max_new_tokens: NEW_TOKENS, min_new_tokens: NEW_TOKENS }, forced_ids: null });
const result = await page.evaluate(async ({ one, four, prompt, runs }) => {
  const worker = new Worker('./worker_loader.js');
  const queue = [];
  let wake = null;
  worker.onmessage = (e) => { queue.push(JSON.parse(e.data)); if (wake) { wake(); wake = null; } };
  const next = async (types) => {
    for (;;) {
      const i = queue.findIndex((m) => types.includes(m.type));
      if (i >= 0) return queue.splice(i, 1)[0];
      await new Promise((r) => { wake = r; });
    }
  };
  await next(['ready']);
  const names = ['config.json', 'model.safetensors', 'tokenizer.json'];
  const buffers = await Promise.all(names.map((n) => fetch('bench-model/' + n).then((r) => r.arrayBuffer())));
  const weightBytes = buffers[1].byteLength;
  worker.postMessage({ json: JSON.stringify({ type: 'load', source: { kind: 'files', names } }), buffers }, buffers);
  const loaded = await next(['loaded', 'load_failed']);
  if (loaded.type !== 'loaded') throw new Error('load failed: ' + loaded.message);
  let id = 0;
  const run = async (lanes) => {
    id += 1;
    queue.length = 0;
    worker.postMessage(JSON.stringify({ type: 'run', run_id: id, request: { prompt, lanes, top_n: 20 } }));
    const done = await next(['finished', 'run_failed']);
    if (done.type !== 'finished') throw new Error('run failed: ' + done.message);
    return { ms: done.ms, first: done.first_step_ms, tokens: done.document.runs.reduce((n, r) => n + r.token_ids.length, 0), memory: done.memory_bytes };
  };
  await run(one); // warm-up
  const out = { one: [], four: [], load_ms: loaded.load_ms, weight_bytes: weightBytes, memory: loaded.memory_bytes };
  for (let i = 0; i < runs; i++) {
    out.one.push(await run(one));
    out.four.push(await run(four));
  }
  out.memory = Math.max(out.memory, ...out.four.map((r) => r.memory));
  worker.terminate();
  return out;
}, { one: [lane(LANES[0])], four: LANES.map(lane), prompt: PROMPT, runs: RUNS });
await browser.close();
server.close();

const summary = (rs) => {
  const total = median(rs.map((r) => r.ms));
  const tokens = rs[0].tokens;
  return { tokens, total_ms: total, first_token_ms: median(rs.map((r) => r.first)), tokens_per_s: tokens * 1000 / total, step_ms: total / NEW_TOKENS };
};
console.log(JSON.stringify({
  engine: 'browser', runs: RUNS, load_ms: result.load_ms, weight_bytes: result.weight_bytes, peak_memory_bytes: result.memory,
  four_lanes: summary(result.four), one_lane: summary(result.one),
}));
