// The threaded engine worker (cross-origin isolated pages) against the
// single-threaded one (every other host): same tokens, same probabilities to
// the bit, and the page says which one it runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, modelReady, runAll, laneTexts, setKnob, recordWorkers, ROOT } from './harness.mjs';
import { driveWorker } from './worker_client.mjs';
import { REQUESTS, LENS_REQUEST, TREES } from './worker_requests.mjs';

let isolated, plain;
before(async () => { [isolated, plain] = await Promise.all([start(), start({ isolated: false })]); });
after(async () => { await isolated?.close(); await plain?.close(); });

async function documents(env, loader) {
  const page = await env.open('?model=bundled');
  const out = await page.evaluate(driveWorker, { loader, modelBase: 'models/kjv-gpt2', requests: REQUESTS, trees: TREES });
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.close();
  return { ...out, cores };
}

test('the threaded worker gives exactly the single-threaded worker\'s tokens, probabilities and records', async () => {
  const threaded = await documents(isolated, './worker_mt_loader.js');
  const single = await documents(plain, './worker_loader.js');
  assert.equal(single.loaded.threads, 1);
  assert.equal(threaded.loaded.threads, Math.min(threaded.cores, 4), 'one thread per core, up to four');
  assert.equal(threaded.finished.length, REQUESTS.length);
  for (const [i, done] of threaded.finished.entries()) {
    // Deep equality of the whole run documents: ids, text, every step's
    // candidates, logits, probabilities, funnel, beams, draws.
    assert.deepEqual(done.document, single.finished[i].document, `request ${i}`);
  }
  // Sample trees: the same branches, counts and probabilities on either worker.
  assert.equal(threaded.grown.length, TREES.length);
  for (const [i, g] of threaded.grown.entries()) {
    assert.deepEqual(g.document, single.grown[i].document, `tree ${i}`);
    assert.equal(g.document.tree.leaves.length, TREES[i].samples);
  }
  // In wasm too, the lens's last row is each step's raw distribution.
  const lensed = single.finished[LENS_REQUEST].document.runs;
  assert.equal(lensed.length, 4);
  for (const [lane, run] of lensed.entries()) {
    assert.equal(run.steps.length, 12, `lane ${lane}`);
    for (const step of run.steps) {
      assert.equal(step.lens.length, 4, `lane ${lane}: a row per layer of the bundled model`);
      const last = step.lens.at(-1);
      assert.equal(last.chosen_prob, step.chosen_raw_prob, `lane ${lane}`);
      assert.equal(last.chosen_rank, step.rank, `lane ${lane}`);
      for (const t of last.top) {
        const c = step.top.find((c) => c.id === t.id);
        if (c) assert.equal(t.prob, c.raw_prob, `lane ${lane}, token ${t.id}`);
      }
    }
  }
  assert.ok(single.finished.slice(0, LENS_REQUEST).every((d) => d.document.runs.every((r) => r.steps.every((s) => !('lens' in s)))));
});

test('on an eight-core machine the threaded worker runs four threads and still gives exactly the single-threaded documents', async () => {
  // More threads than a job has parts (two or three lanes deciding, short
  // products): the helpers a job does not need must not take its wake-up or
  // its words. Two of these cores are real, so helpers often sleep between jobs.
  const requests = [...REQUESTS, { prompt: 'In the beginning', top_n: 20, lanes: [
    { config: { max_new_tokens: 12, do_sample: true, seed: 2 }, forced_ids: null },
    { config: { max_new_tokens: 12, repetition_penalty: 1.3 }, forced_ids: null },
  ] }];
  const page = await isolated.open('?model=bundled');
  const many = await page.evaluate(driveWorker, { loader: './worker_mt_loader.js?cores=8', modelBase: 'models/kjv-gpt2', requests });
  await page.close();
  const plainPage = await plain.open('?model=bundled');
  const single = await plainPage.evaluate(driveWorker, { loader: './worker_loader.js', modelBase: 'models/kjv-gpt2', requests });
  await plainPage.close();
  assert.equal(many.loaded.threads, 4);
  for (const [i, done] of many.finished.entries()) assert.deepEqual(done.document, single.finished[i].document, `request ${i}`);
  assert.equal(many.finished.length, requests.length);
});

test('an isolated page runs the threaded worker and a plain one the single-threaded worker, with the same text', async () => {
  const texts = [];
  for (const [env, expect] of [[isolated, null], [plain, '1 thread']]) {
    const page = await env.context.newPage();
    page.on('pageerror', (e) => env.errors.push(String(e)));
    await page.addInitScript(recordWorkers);
    await page.goto(env.base + '?model=bundled');
    await modelReady(page);
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const threads = expect ? 1 : Math.min(cores, 4);
    assert.equal(await page.textContent('[data-testid="threads"]'), threads === 1 ? '1 thread — single-threaded worker: this page is not cross-origin isolated' : `${threads} threads`);
    assert.equal(await page.getAttribute('[data-testid="threads"]', 'data-why'), expect ? 'not-isolated' : '');
    // The page starts the threaded worker's helpers itself, one per extra
    // thread (a worker's own `new Worker` sometimes never returns in Firefox ESR).
    const made = expect ? ['./worker_loader.js'] : ['./worker_mt_loader.js', ...Array(threads - 1).fill('./worker_mt_helper.js')];
    assert.deepEqual(await page.evaluate(() => window.ntlWorkers), made);
    for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 10);
    await runAll(page);
    texts.push(await laneTexts(page));
    await page.close();
  }
  assert.deepEqual(texts[0], texts[1]);
  assert.deepEqual(isolated.errors, []);
  assert.deepEqual(plain.errors, []);
});

test('an isolated host without the threaded build still runs the page, on one thread', async () => {
  // The built site minus the threaded worker's wasm, as a host that copied only part of dist/.
  const site = mkdtempSync(join(tmpdir(), 'ntl-no-threads-'));
  for (const f of readdirSync(join(ROOT, 'dist'))) if (f !== 'worker_mt_bg.wasm') symlinkSync(join(ROOT, 'dist', f), join(site, f));
  const env = await start({ dir: site });
  try {
    const page = await env.open();
    await modelReady(page);
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), true);
    assert.equal(await page.textContent('[data-testid="threads"]'), '1 thread — single-threaded worker: the threaded one did not start here');
    assert.equal(await page.getAttribute('[data-testid="threads"]', 'data-why'), 'threaded-failed');
    for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 4);
    await runAll(page);
    assert.ok((await laneTexts(page)).every((t) => t.length > 0));
    assert.equal(await page.$('[data-testid="error"]'), null, 'the fallback is quiet');
    await page.close();
  } finally {
    await env.close();
  }
});

test('an isolated page whose threaded worker never starts says so after 20 s and restarts on one thread', async () => {
  // The threaded worker's wasm never arrives: the worker neither starts nor fails.
  let held = 0;
  await isolated.context.route('**/worker_mt_bg.wasm', () => { held++; });
  try {
    const page = await isolated.open();
    const opened = Date.now();
    await page.waitForSelector('[data-testid="worker-slow"]', { timeout: 60_000 });
    assert.ok(Date.now() - opened >= 15_000, 'not before the page\'s patience has run out');
    assert.ok(held >= 1, 'the threaded worker asked for its wasm');
    assert.equal(await page.getAttribute('[data-testid="model-status"]', 'data-state'), 'loading');
    assert.match(await page.textContent('[data-testid="worker-slow"]'), /not started after 20 seconds/);
    await page.click('[data-testid="restart-worker"]');
    await modelReady(page);
    assert.match(await page.textContent('[data-testid="threads"]'), /^1 thread — single-threaded worker: the threaded one did not start here$/);
    assert.equal(await page.$('[data-testid="worker-slow"]'), null);
    assert.equal(await page.$('[data-testid="restart-worker"]'), null);
    for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 4);
    await runAll(page);
    assert.ok((await laneTexts(page)).every((t) => t.length > 0));
    await page.close();
  } finally {
    await isolated.context.unroute('**/worker_mt_bg.wasm');
  }
});
