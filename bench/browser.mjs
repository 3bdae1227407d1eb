// The page's engine in headless Chromium: drives the worker the page uses,
// with the worker protocol, on a checkpoint directory, and prints the figures
// the worker reports as one JSON object (medians of RUNS). By default the page
// is cross-origin isolated and uses the threaded worker, as scripts/serve.mjs
// serves it; --single-thread measures the worker every other host gets.
//   node bench/browser.mjs MODEL_DIR [RUNS] [--single-thread]   (needs dist/ from scripts/build.sh)
import { mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { serve } from '../scripts/serve.mjs';
import { LANES, PROMPT, NEW_TOKENS, median } from './workload.mjs';
import { driveWorker } from '../tests/e2e/worker_client.mjs';

const require = createRequire(join(process.cwd(), 'tests/e2e/package.json'));
const { chromium } = require('playwright-core');
const args = process.argv.slice(2);
const threaded = !args.includes('--single-thread');
const [modelDir, runsArg] = args.filter((a) => !a.startsWith('--'));
const RUNS = Number(runsArg || 3);
const dist = resolve('dist');

// A throwaway site: the built page's files, the checkpoint, an empty page.
const site = mkdtempSync(join(tmpdir(), 'ntl-bench-'));
for (const f of readdirSync(dist)) symlinkSync(join(dist, f), join(site, f));
symlinkSync(resolve(modelDir), join(site, 'bench-model'));
writeFileSync(join(site, 'bench.html'), '<!doctype html><title>bench</title>');
const server = await serve(site, 0, { isolated: threaded });
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage();
await page.goto(base + 'bench.html');
const lane = (cfg) => ({ config: { ...cfg, max_new_tokens: NEW_TOKENS, min_new_tokens: NEW_TOKENS }, forced_ids: null });
// Warm-up, then one lane and four lanes in turn, RUNS times.
const one = [lane(LANES[0])];
const four = LANES.map(lane);
const requests = [one, ...Array.from({ length: RUNS }, () => [one, four]).flat()].map((lanes) => ({ prompt: PROMPT, lanes, top_n: 20 }));
if (threaded && !(await page.evaluate(() => self.crossOriginIsolated))) throw new Error('the bench page is not cross-origin isolated');
const { loaded, weightBytes, finished } = await page.evaluate(driveWorker, {
  loader: threaded ? './worker_mt_loader.js' : './worker_loader.js', modelBase: 'bench-model', requests,
});
const figures = (done) => ({ ms: done.ms, first: done.first_step_ms, tokens: done.document.runs.reduce((n, r) => n + r.token_ids.length, 0), memory: done.memory_bytes });
const runs = finished.slice(1).map(figures);
const result = {
  one: runs.filter((_, i) => i % 2 === 0), four: runs.filter((_, i) => i % 2 === 1),
  load_ms: loaded.load_ms, weight_bytes: weightBytes, threads: loaded.threads,
  memory: Math.max(loaded.memory_bytes, ...runs.map((r) => r.memory)),
};
await browser.close();
server.close();

const summary = (rs) => {
  const total = median(rs.map((r) => r.ms));
  const tokens = rs[0].tokens;
  return { tokens, total_ms: total, first_token_ms: median(rs.map((r) => r.first)), tokens_per_s: tokens * 1000 / total, step_ms: total / NEW_TOKENS };
};
console.log(JSON.stringify({
  engine: threaded ? 'browser' : 'browser_single_thread', threads: result.threads, runs: RUNS, load_ms: result.load_ms, weight_bytes: result.weight_bytes, peak_memory_bytes: result.memory,
  four_lanes: summary(result.four), one_lane: summary(result.one),
}));
