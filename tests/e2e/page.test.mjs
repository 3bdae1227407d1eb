// The page in real headless Chromium, on the bundled offline model.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { start, modelReady, runAll, laneTexts, setKnob, ARTIFACTS, ROOT } from './harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test('four lanes produce text, greedy repeats itself exactly, and the page is screenshotted', async () => {
  const page = await env.open();
  await modelReady(page);
  const status = await page.textContent('[data-testid="model-status"]');
  assert.match(status, /bundled/i);
  assert.match(status, /parameters/);
  await runAll(page);
  const first = await laneTexts(page);
  assert.equal(first.length, 4);
  // Every lane generated tokens (a sampling lane may meet <|endoftext|> early); greedy runs its full 40.
  for (let i = 0; i < 4; i++) {
    assert.ok(await page.locator(`[data-testid="lane-${i}"] [data-testid="token"]`).count() >= 1, `lane ${i} produced tokens`);
  }
  assert.ok(first[0].trim().length > 10, `greedy text: ${JSON.stringify(first[0])}`);
  assert.equal(await page.getAttribute('[data-testid="lane-0"] [data-testid="lane-status"]', 'data-stop'), 'max_new_tokens');
  await page.screenshot({ path: join(ARTIFACTS, 'page.png'), fullPage: true });
  await runAll(page);
  const second = await laneTexts(page);
  assert.equal(second[0], first[0], 'greedy gives identical text on two runs');
  assert.equal(second[3], first[3], 'greedy + no_repeat_ngram_size is deterministic too');
  const statuses = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => e.innerText));
  assert.match(statuses[0], /greedy · \d+ tokens/);
  assert.match(statuses[1], /sample/);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test("a token's table opens with its candidates, the chosen one marked, probabilities summing to at most 1", async () => {
  const page = await env.open();
  await modelReady(page);
  await runAll(page);
  await page.click('[data-testid="lane-1"] [data-testid="token"] >> nth=2');
  await page.waitForSelector('[data-testid="step-table"]');
  const probs = await page.$$eval('[data-testid="step-table"] [data-testid="candidate"]', (rows) => rows.map((r) => Number(r.dataset.prob)));
  assert.ok(probs.length >= 5, `${probs.length} candidates`);
  const sum = probs.reduce((a, b) => a + b, 0);
  assert.ok(sum <= 1 + 1e-5, `sum ${sum}`);
  assert.equal(await page.locator('[data-testid="step-table"] tr[data-chosen="true"]').count(), 1);
  // temperature 0.7 + top_p 0.9 removes tokens: the funnel names both knobs.
  const funnel = await page.textContent('[data-testid="step-table"] .funnel');
  assert.match(funnel, /temperature/);
  assert.match(funnel, /top_p/);
  await page.screenshot({ path: join(ARTIFACTS, 'step-table.png') });
  await page.close();
});

test('Stop ends every lane before its end, and Run works again afterwards', async () => {
  const page = await env.open();
  await modelReady(page);
  for (let lane = 0; lane < 4; lane++) await setKnob(page, lane, 'max_new_tokens', 200);
  // Stop at once: under a loaded CI the page once drew its third token after
  // the worker had written all 200 (every lane then ends on its budget).
  await page.click('[data-testid="run"]');
  await page.click('[data-testid="stop"]');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="lane-status"]')].every((e) => e.dataset.stop));
  const stops = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => e.dataset.stop));
  assert.deepEqual(stops, ['cancelled', 'cancelled', 'cancelled', 'cancelled']);
  // Short of the 200 asked for; how far short is the page's lag behind the
  // worker's steps: timing, not a bound.
  const n = await page.locator('[data-testid="lane-0"] [data-testid="token"]').count();
  assert.ok(n < 200, `stopped before its end (${n} tokens)`);
  for (let lane = 0; lane < 4; lane++) await setKnob(page, lane, 'max_new_tokens', 5);
  await runAll(page);
  const stops2 = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => e.dataset.stop));
  assert.ok(stops2.every((s) => s === 'max_new_tokens' || s === 'eos'), stops2.join());
  await page.close();
});

test('an invalid knob is reported next to its lane and nothing runs', async () => {
  const page = await env.open();
  await modelReady(page);
  await setKnob(page, 1, 'temperature', 0);
  await page.click('[data-testid="run"]');
  const msg = await page.textContent('[data-testid="lane-1"] [data-testid="lane-error"]');
  assert.match(msg, /temperature/);
  assert.equal(await page.locator('[data-testid="lane-1"] .knob.bad [data-knob="temperature"]').count(), 1);
  assert.equal(await page.locator('[data-testid="lane-0"] [data-testid="token"]').count(), 0);
  await page.close();
});

test('a broken model file shows an error naming it, and the page still runs afterwards', async () => {
  const page = await env.open();
  await modelReady(page);
  const dir = mkdtempSync(join(tmpdir(), 'ntl-broken-'));
  const src = join(ROOT, 'www', 'models', 'kjv-gpt2');
  writeFileSync(join(dir, 'config.json'), readFileSync(join(src, 'config.json')));
  writeFileSync(join(dir, 'tokenizer.json'), readFileSync(join(src, 'tokenizer.json')));
  const weights = readFileSync(join(src, 'model.safetensors'));
  writeFileSync(join(dir, 'model.safetensors'), weights.subarray(0, weights.length >> 1));
  await page.click('.model-choice summary');
  await page.setInputFiles('[data-testid="model-files"]', ['config.json', 'model.safetensors', 'tokenizer.json'].map((f) => join(dir, f)));
  await page.waitForSelector('[data-testid="model-status"][data-state="failed"]', { timeout: 60_000 });
  const msg = await page.textContent('[data-testid="model-status"]');
  assert.match(msg, /model\.safetensors/);
  assert.match(msg, /truncated/);
  await page.click('text=Bundled offline model');
  await modelReady(page);
  await runAll(page);
  assert.ok((await laneTexts(page))[0].trim().length > 0);
  await page.close();
});

test('when the model hub cannot be reached the page says so and runs the bundled model', async () => {
  // No ?model=: the default is distilgpt2 from the hub, which this machine cannot reach.
  const page = await env.open('');
  await modelReady(page, 180_000);
  const notice = await page.textContent('[data-testid="model-notice"]');
  assert.match(notice, /could not be reached/);
  assert.match(await page.textContent('[data-testid="model-status"]'), /bundled/i);
  await runAll(page);
  assert.ok((await laneTexts(page))[0].trim().length > 0);
  await page.close();
});
