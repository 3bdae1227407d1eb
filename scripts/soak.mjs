// A class keeps one tab open for an hour: 300 runs in one page, mixing Run,
// Stop mid-step, Re-roll, branch, scoring a text, preset changes and model
// switches (picked files and back to the bundled model). Every 25 runs the
// worker's wasm memory (as the worker reports it after each run) and the
// page's JS objects (a heap snapshot after a forced collection) are sampled; neither may grow
// past the first sample by more than 10 %, no page error may occur, and the
// last run's texts must equal a fresh page's. Benchmark-style, outside CI
// (about ten minutes); needs dist/ from scripts/build.sh.
//   node scripts/soak.mjs [RUNS] [--single-thread] [--every=25]   → JSON figures on stdout, bench/out/soak.json
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serve } from './serve.mjs';

const require = createRequire(join(process.cwd(), 'tests/e2e/package.json'));
const { chromium } = require('playwright-core');

const args = process.argv.slice(2);
const RUNS = Number(args.find((a) => !a.startsWith('--')) || 300);
const isolated = !args.includes('--single-thread');
const EVERY = Number(args.find((a) => a.startsWith('--every='))?.slice(8) || 25);
const MODEL = resolve('dist/models/kjv-gpt2');

const server = await serve('dist', 0, { isolated });
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--js-flags=--expose-gc'],
});
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
// The worker reports its wasm memory with every finished run.
await context.addInitScript(() => {
  window.__wasm = [];
  const W = window.Worker;
  window.Worker = class extends W {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => {
        try {
          const m = typeof e.data === 'string' ? JSON.parse(e.data) : null;
          if (m && m.memory_bytes) window.__wasm.push(m.memory_bytes);
        } catch { /* not a protocol message */ }
      });
    }
  };
});
const errors = [];
const open = async () => {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(base + '?model=bundled');
  await ready(page);
  return page;
};
const ready = (page) => page.locator('[data-testid="model-status"][data-state="ready"]').waitFor({ timeout: 120_000 });
const runNumber = (page) => page.$eval('.page', (e) => Number(e.dataset.run));
const waitDone = (page, prev) => page.waitForFunction((prev) => {
  const d = document.querySelector('.page').dataset;
  const s = [...document.querySelectorAll('[data-testid="lane-status"]')];
  return Number(d.run) > prev && d.running === 'false' && s.length === 4 && s.every((e) => e.dataset.stop);
}, prev, { timeout: 300_000 });
const texts = (page) => page.$$eval('[data-testid="lane-text"]', (els) => els.map((e) => e.innerText));
async function click(page, selector) {
  const prev = await runNumber(page);
  await page.click(selector);
  await waitDone(page, prev);
}

const PROMPT = 'In the beginning God created';
const presets = await (async () => {
  const page = await open();
  const labels = await page.$$eval('[data-testid="preset"] option', (os) => os.map((o) => o.textContent));
  await page.close();
  return labels;
})();

const page = await open();
const cdp = await context.newCDPSession(page);
// The page's JavaScript objects (closures, arrays, strings, the wasm glue's
// tables) from a heap snapshot after a collection, apart from the browser's
// own native entries in the same heap: its performance timeline buffers (long
// animation frames, event timings) and the prompt box's undo stack grow with
// every interaction up to their fixed caps and are not the page's to free.
// The V8 heap's whole size is recorded beside it.
async function jsHeap() {
  await cdp.send('HeapProfiler.collectGarbage');
  const total = (await cdp.send('Runtime.getHeapUsage')).usedSize;
  const chunks = [];
  const take = (e) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', take);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', take);
  const snap = JSON.parse(chunks.join(''));
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [t, size] = [fields.indexOf('type'), fields.indexOf('self_size')];
  let objects = 0;
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    if (!['native', 'code', 'hidden', 'synthetic'].includes(types[snap.nodes[i + t]])) objects += snap.nodes[i + size];
  }
  return { objects, total };
}
async function setPrompt(text) {
  await page.fill('[data-testid="prompt"]', text);
}
async function pickFiles() {
  await page.click('.model-choice summary');
  await page.setInputFiles('[data-testid="model-files"]', ['config.json', 'model.safetensors', 'tokenizer.json'].map((f) => join(MODEL, f)));
  await page.waitForFunction(() => /local files/.test(document.querySelector('[data-testid="model-status"][data-state="ready"]')?.textContent || ''), null, { timeout: 120_000 });
  await page.click('.model-choice summary');
}
async function bundled() {
  await page.click('.model-choice summary');
  await page.click('text=Bundled offline model');
  await page.waitForFunction(() => /bundled/i.test(document.querySelector('[data-testid="model-status"][data-state="ready"]')?.textContent || ''), null, { timeout: 120_000 });
  await page.click('.model-choice summary');
}

const samples = [];
const actions = {};
const started = Date.now();
for (let i = 1; i <= RUNS; i++) {
  const kind = ['run', 'stop', 'reroll', 'branch', 'score', 'preset'][i % 6];
  actions[kind] = (actions[kind] || 0) + 1;
  if (i === Math.floor(RUNS / 3)) await pickFiles();
  if (i === Math.floor((2 * RUNS) / 3)) await bundled();
  switch (kind) {
    case 'run':
      await click(page, '[data-testid="run"]');
      break;
    case 'stop': {
      const prev = await runNumber(page);
      await page.click('[data-testid="run"]');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="lane-0"] [data-testid="token"]').length >= 2, null, { timeout: 120_000 });
      // A short lesson preset may finish before the click lands.
      if (await page.isEnabled('[data-testid="stop"]')) await page.click('[data-testid="stop"]', { timeout: 5_000 }).catch(() => {});
      await waitDone(page, prev);
      break;
    }
    case 'reroll':
      await click(page, '[data-testid="reroll"]');
      break;
    case 'branch': {
      // Locators, not element handles: a handle would keep its (later
      // detached) DOM alive and count as the page's growth.
      if ((await page.locator('[data-testid="lane-0"] [data-testid="token"]').count()) < 2) await click(page, '[data-testid="run"]');
      await page.click('[data-testid="lane-0"] [data-testid="token"] >> nth=1');
      await page.locator('[data-testid="step-table"]').waitFor();
      const prev = await runNumber(page);
      await page.click('[data-testid="step-table"] tr[data-chosen="false"] [data-testid="branch"] >> nth=0');
      await waitDone(page, prev);
      await setPrompt(PROMPT); // the branch grew the prompt; keep each run's work alike
      await page.keyboard.press('Escape');
      break;
    }
    case 'score':
      await page.fill('[data-testid="score-text"]', ' and the earth was without form, and void');
      await click(page, '[data-testid="score"]');
      break;
    case 'preset':
      await page.selectOption('[data-testid="preset"]', { label: presets[i % presets.length] });
      await setPrompt(PROMPT);
      await click(page, '[data-testid="run"]');
      break;
  }
  if (i % EVERY === 0) {
    const wasm = await page.evaluate(() => window.__wasm[window.__wasm.length - 1] ?? null);
    const heap = await jsHeap();
    samples.push({ run: i, wasm_bytes: wasm, js_heap_bytes: heap.objects, v8_heap_bytes: heap.total, seconds: Math.round((Date.now() - started) / 1000) });
    console.error(JSON.stringify(samples[samples.length - 1]));
  }
}

// The last run against a fresh page: the same preset and prompt.
const last = presets[0];
const final = async (p) => {
  await p.selectOption('[data-testid="preset"]', { label: last });
  await p.fill('[data-testid="prompt"]', PROMPT);
  const prev = await runNumber(p);
  await p.click('[data-testid="run"]');
  await waitDone(p, prev);
  return texts(p);
};
const soaked = await final(page);
const fresh = await open();
const freshTexts = await final(fresh);
await browser.close();
server.close();

const growth = (key) => Math.max(...samples.map((s) => s[key])) / samples[0][key];
const result = {
  runs: RUNS, worker: isolated ? 'threaded' : 'single-threaded', minutes: +((Date.now() - started) / 60000).toFixed(1), actions,
  samples, wasm_growth: +growth('wasm_bytes').toFixed(3), js_heap_growth: +growth('js_heap_bytes').toFixed(3),
  v8_heap_growth: +growth('v8_heap_bytes').toFixed(3),
  page_errors: errors, last_run_equals_fresh_page: JSON.stringify(soaked) === JSON.stringify(freshTexts),
};
result.pass = result.wasm_growth <= 1.1 && result.js_heap_growth <= 1.1 && errors.length === 0 && result.last_run_equals_fresh_page;
mkdirSync('bench/out', { recursive: true });
writeFileSync(`bench/out/soak${isolated ? '' : '-single'}.json`, JSON.stringify(result, null, 1));
console.log(JSON.stringify(result));
process.exit(result.pass ? 0 : 1);
