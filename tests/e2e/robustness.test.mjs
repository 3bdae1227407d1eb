// Bad input and bad luck never break the page: a dying worker, a download cut
// off half-way, Run while running, Stop in the middle of beam search.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start, modelReady, runAll, laneTexts, openEditor, setKnob, waitRunDone, ROOT } from './harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const MY_PROMPT = 'My own prompt, not to be lost';

/// A ready page holding a prompt and a knob of the user's own, and its model worker
/// (the threaded worker's helpers are workers too; the model's own is the loader's).
async function pageWithMyWork() {
  const page = await env.open();
  await modelReady(page);
  await page.fill('[data-testid="prompt"]', MY_PROMPT);
  await setKnob(page, 2, 'temperature', 0.9);
  const worker = page.workers().find((w) => !/helper/.test(w.url()));
  assert.ok(worker, 'the model runs in a dedicated worker');
  return { page, worker };
}

/// Once a model is ready again: the prompt and knob are still there and a run works.
async function myWorkKeptAndRuns(page) {
  assert.equal(await page.inputValue('[data-testid="prompt"]'), MY_PROMPT);
  assert.equal(await page.inputValue('[data-testid="lane-2"] [data-knob="temperature"]'), '0.9');
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 4);
  await runAll(page);
  assert.ok((await laneTexts(page))[0].length > 0);
}

test('when the worker dies the page says so, keeps the prompt and settings, and a restarted worker runs again', async () => {
  const { page, worker } = await pageWithMyWork();
  // A worker that fails for another reason than memory: an uncaught error in it.
  await worker.evaluate(() => setTimeout(() => { throw new TypeError('the engine tripped'); }, 0));
  await page.waitForSelector('[data-testid="restart-worker"]');
  assert.match(await page.textContent('[data-testid="error"]'), /worker crashed.*the engine tripped.*prompt and settings are kept/s);
  assert.equal(await page.getAttribute('[data-testid="model-status"]', 'data-state'), 'failed');
  assert.ok(await page.isDisabled('[data-testid="run"]'));
  await page.click('[data-testid="restart-worker"]');
  await modelReady(page);
  await myWorkKeptAndRuns(page);
  await page.close();
});

test('a worker out of memory: the page names the model and its size, starts a fresh worker without it, and keeps the prompt and lanes', async () => {
  const { page, worker } = await pageWithMyWork();
  // What Chromium reports when a worker's memory cannot grow.
  await worker.evaluate(() => setTimeout(() => { throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded'); }, 0));
  await page.waitForSelector('[data-testid="model-status"][data-state="failed"]');
  const said = await page.textContent('[data-testid="error"]');
  assert.match(said, /ran out of memory with bundled KJV-GPT-2 \(offline\) \([\d.]+ MB of weights, about [\d.]+ MB to run with four lanes' cache of \d+ tokens\).*prompt and lanes are kept/s);
  assert.equal(await page.locator('[data-testid="restart-worker"]').count(), 0, 'a fresh worker is already there');
  const mains = () => page.workers().filter((w) => !/helper/.test(w.url()));
  for (let i = 0; i < 50 && !(mains().length === 1 && mains()[0] !== worker); i++) await page.waitForTimeout(100);
  assert.equal(mains().length, 1, 'the old worker was ended, one fresh one runs');
  assert.notEqual(mains()[0], worker);
  // Nothing loads by itself; the user's pick does.
  await page.click('.model-choice summary');
  await page.click('text=Bundled offline model');
  await modelReady(page);
  await myWorkKeptAndRuns(page);
  await page.close();
});

test('a download cut off half-way gives a clear retry, and the broken file is never served from the cache', async () => {
  const weights = readFileSync(join(ROOT, 'dist', 'models', 'kjv-gpt2', 'model.safetensors'));
  // Start with an empty model cache (earlier tests filled it).
  const clean = await env.open();
  await modelReady(clean);
  assert.equal(await clean.evaluate(() => caches.delete('ntl-models-v1')), true);
  await clean.close();
  const pattern = '**/models/kjv-gpt2/model.safetensors';
  await env.context.route(pattern, (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: weights.subarray(0, weights.length >> 1) }));
  const page = await env.open();
  await page.waitForSelector('[data-testid="model-status"][data-state="failed"]', { timeout: 60_000 });
  const msg = await page.textContent('[data-testid="model-status"]');
  assert.match(msg, /model\.safetensors/);
  assert.match(msg, /truncated|stopped at|broke off/);
  await env.context.unroute(pattern);
  // Retry: must download afresh, not reuse what arrived before.
  await page.click('.model-choice summary');
  await page.click('text=Bundled offline model');
  await modelReady(page);
  // And a fresh page (cache hit now) loads the good file too.
  const again = await env.open();
  await modelReady(again);
  await again.close();
  await page.close();
});

test('Run while running starts the new run and the old one stops streaming into the lanes', async () => {
  const page = await env.open();
  await modelReady(page);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 150);
  await page.click('[data-testid="run"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="lane-0"] [data-testid="token"]').length >= 3);
  const first = Number(await page.getAttribute('.page', 'data-run'));
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 6);
  await page.click('[data-testid="run"]');
  await waitRunDone(page, first);
  const runs = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => Number(e.dataset.run)));
  assert.deepEqual(runs, [first + 1, first + 1, first + 1, first + 1]);
  assert.equal(await page.locator('[data-testid="lane-0"] [data-testid="token"]').count(), 6);
  await page.close();
});

test('Stop in the middle of beam search ends every lane and Run works again', async () => {
  const page = await env.open();
  await modelReady(page);
  await page.selectOption('[data-testid="preset"]', { label: 'Beam search vs greedy' });
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 120);
  await setKnob(page, 3, 'min_new_tokens', 120);
  await page.click('[data-testid="run"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="lane-3"] [data-testid="token"]').length >= 2);
  await page.click('[data-testid="stop"]');
  await page.waitForFunction(() => document.querySelector('.page').dataset.running === 'false');
  const stops = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => e.dataset.stop));
  assert.equal(stops[3], 'cancelled', stops.join());
  assert.ok((await laneTexts(page))[3].length > 0, 'the beam lane shows its best hypothesis so far');
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 3);
  await setKnob(page, 3, 'min_new_tokens', 0);
  await runAll(page);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('a run that hears nothing from the worker for ?stall= seconds ends with a message, and the same worker runs again', async () => {
  const page = await env.open('?model=bundled&stall=5');
  await modelReady(page);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 4);
  const workers = page.workers().length;
  const worker = page.workers().find((w) => !/helper/.test(w.url()));
  // The worker's thread is busy for 8 s (as a kernel that never returns
  // would keep it): the run's request waits behind it, nothing comes back.
  const busy = worker.evaluate(() => setTimeout(() => { const end = Date.now() + 8000; while (Date.now() < end); }, 0));
  await busy;
  const started = Date.now();
  await page.click('[data-testid="run"]');
  await page.waitForSelector('[data-testid="error"]', { timeout: 15_000 });
  const waited = (Date.now() - started) / 1000;
  assert.ok(waited >= 4.5, `ended after ${waited} s, not before the limit`);
  assert.match(await page.textContent('[data-testid="error"]'), /heard nothing from the model worker for 5 s/);
  assert.equal(await page.getAttribute('.page', 'data-running'), 'false');
  assert.equal(await page.getAttribute('[data-testid="model-status"]', 'data-state'), 'ready');
  // Once the thread is free, the same worker and model run again.
  await page.waitForTimeout(4000);
  await runAll(page);
  assert.ok((await laneTexts(page)).every((t) => t.length > 0));
  assert.equal(await page.locator('[data-testid="error"]').count(), 0);
  assert.equal(page.workers().length, workers, 'no worker was restarted');
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('a beam lane whose scores reach -inf (forced_eos_token_id) finishes, and the worker and model stay up', async () => {
  const page = await env.open();
  await modelReady(page);
  const workers = page.workers().length;
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 5);
  await openEditor(page, 2);
  await page.selectOption('[data-testid="lane-2"] [data-knob="mode"]', { label: 'beam search' });
  await page.click('[data-testid="token-knobs-2"] summary');
  await setKnob(page, 2, 'forced_eos_token_id', 50256);
  await runAll(page);
  const stops = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => e.dataset.stop));
  assert.ok(stops.every((s) => s && s !== 'cancelled'), stops.join());
  assert.equal(await page.locator('[data-testid="error"]').count(), 0);
  assert.equal(await page.getAttribute('[data-testid="model-status"]', 'data-state'), 'ready');
  assert.equal(page.workers().length, workers, 'no worker was restarted');
  // The step where beams end shows their -inf scores as numbers, not as a crash.
  await page.click('[data-testid="lane-2"] [data-testid="token"] >> nth=-1');
  await page.waitForSelector('[data-testid="compare"]');
  assert.deepEqual(env.errors, []);
  await page.close();
});
