// 8-bit at load: *Change model* → "Keep weights in 8 bits" reloads a
// safetensors model as Q8_0 blocks. In the browser it runs exactly what
// llama.cpp's Q8_0 file of the same checkpoint runs there; the bundled model
// says so on its model line, writes decode's text, and its probabilities move
// a little off full precision and back when the box is cleared.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { start, modelReady, runAll, laneTexts, ROOT } from './harness.mjs';

// `decode --model www/models/kjv-gpt2 --prompt 'In the beginning'
// --config '{"max_new_tokens": 8}' --json`: each step's chosen_prob; with
// --quantize q8_0 the same text.
const F32 = [0.39141953, 0.34132075, 0.02863678, 0.74211407, 0.44919422, 0.21160325, 0.29531038, 0.33787319];
const TEXT = ' of the house of the LORD, and';
const TINY = join(ROOT, 'tests', 'fixtures', 'models', 'tiny');
const GGUF = join(ROOT, 'tests', 'fixtures', 'gguf');
let env;

before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const link = '#run=1.' + deflateRawSync(Buffer.from(JSON.stringify({ prompt: 'In the beginning', lanes: [{ max_new_tokens: 8 }], model: 'bundled' }))).toString('base64url');

async function exported(page) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-json"]')]);
  const chunks = [];
  for await (const c of await d.createReadStream()) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}
const chosen = (doc) => doc.runs[0].steps.map((s) => s.chosen_prob);
const apart = (a, b) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));
const readyWith = (page, pattern) => page.waitForFunction((p) => new RegExp(p).test(document.querySelector('[data-testid="model-status"][data-state="ready"]')?.textContent || ''), pattern, { timeout: 120_000 });

test('keeping weights in 8 bits reloads the bundled model as Q8_0, near full precision but not it, and clearing the box restores it', async () => {
  const page = await env.open(link);
  await modelReady(page);
  await runAll(page);
  assert.ok(apart(chosen(await exported(page)), F32) < 1e-5, 'full precision first');
  await page.click('.model-choice summary');
  await page.check('[data-testid="load-8bit"]');
  await readyWith(page, 'Q8_0 \\(quantized at load from F16\\)');
  await runAll(page);
  assert.deepEqual(await laneTexts(page), [TEXT]);
  // Each product's input rows are rounded to 8 bits too (as llama.cpp's CPU
  // backend does), so a probability moves by up to about 1 % of itself.
  const q8 = chosen(await exported(page));
  assert.ok(apart(q8, F32) > 1e-4 && apart(q8, F32) < 2e-2, `Q8_0's probabilities: ${q8}`);
  await page.uncheck('[data-testid="load-8bit"]');
  await readyWith(page, ' · F16 · ');
  await runAll(page);
  assert.ok(apart(chosen(await exported(page)), F32) < 1e-5, 'full precision again');
  await page.close();
  assert.deepEqual(env.errors, []);
});

test('a safetensors checkpoint kept in 8 bits runs exactly what llama.cpp\'s Q8_0 file of it runs', async () => {
  const page = await env.open(link);
  await modelReady(page);
  await page.click('.model-choice summary');
  await page.check('[data-testid="load-8bit"]');
  await readyWith(page, 'Q8_0 \\(quantized at load from F16\\)');
  const pick = async (files, dtype) => {
    await page.setInputFiles('[data-testid="model-files"]', files);
    await readyWith(page, `local files.* · ${dtype} · `);
    await runAll(page);
    return exported(page);
  };
  const atLoad = await pick(['config.json', 'model.safetensors', 'tokenizer.json'].map((f) => join(TINY, f)), 'Q8_0 \\(quantized at load from F16\\)');
  const file = await pick([join(GGUF, 'gpt2-q8_0.gguf'), join(GGUF, 'tokenizer.json')], 'GGUF Q8_0');
  assert.deepEqual(atLoad.runs[0].token_ids, file.runs[0].token_ids);
  assert.deepEqual(chosen(atLoad), chosen(file));
  assert.deepEqual(atLoad.runs[0].steps.map((s) => s.top), file.runs[0].steps.map((s) => s.top));
  await page.close();
  assert.deepEqual(env.errors, []);
});
