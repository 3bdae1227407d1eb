// 8-bit at load: *Change model* → "Keep weights in 8 bits" reloads a
// safetensors model as Q8_0 blocks. In the browser it runs exactly what
// llama.cpp's Q8_0 file of the same checkpoint runs there; the bundled model
// says so on its model line, writes decode's text, and its probabilities move
// a little off full precision and back when the box is cleared.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { start, modelReady, runAll, waitRunDone, laneTexts, recordingShown, ROOT } from './harness.mjs';
import { readFileSync } from 'node:fs';
import { englishChrome } from './chrome_words.mjs';
import { coarseKl } from './kl_bound.mjs';

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

// Greedy on the bundled model: the same text in 8 bits and in F16.
const DRIFT_TEXT = ', and in the LORD, and the';
const driftLink = (laneModels, lang = '') => (lang ? `?lang=${lang}` : '') + '#run=1.' + deflateRawSync(Buffer.from(JSON.stringify({
  prompt: 'In the beginning God created',
  lanes: [{ do_sample: false, max_new_tokens: 8 }, { do_sample: false, max_new_tokens: 8 }],
  model: 'bundled',
  weights: 'q8_0',
  lane_models: laneModels,
}))).toString('base64url');
const drift = (page) => page.locator('[data-testid="step-table"] [data-testid="drift"]');

test("the page's model in 8 bits beside a lane naming it as stored: each step of the 8-bit lane says its KL from full precision, measured on the two lanes' own distributions", async () => {
  const page = await env.open(driftLink([null, 'bundled']));
  await readyWith(page, 'Q8_0 \\(quantized at load from F16\\)');
  await waitRunDone(page, 0, 240_000);
  assert.deepEqual(await laneTexts(page), [DRIFT_TEXT, DRIFT_TEXT]);
  const doc = await exported(page);
  assert.deepEqual(doc.runs.map((r) => r.model?.name ?? null), [null, 'bundled']);
  for (const step of [0, 2, 5]) {
    await page.click(`[data-testid="lane-0"] [data-testid="lane-text"] [data-testid="token"] >> nth=${step}`);
    await page.waitForSelector('[data-testid="step-table"] [data-testid="drift"][data-state="measured"]', { timeout: 60_000 });
    const line = drift(page);
    const attr = async (name) => Number(await line.getAttribute(name));
    // Both lanes wrote the same tokens, so at each step they read the same
    // text: the line's likeliest-token probabilities are the two lanes' own
    // (greedy: each step's chosen token, before any knob).
    const [p, ref] = [await attr('data-p'), await attr('data-reference-p')];
    assert.ok(Math.abs(p - doc.runs[0].steps[step].chosen_raw_prob) < 1e-6, `8 bits, step ${step + 1}: ${p}`);
    assert.ok(Math.abs(ref - doc.runs[1].steps[step].chosen_raw_prob) < 1e-6, `full, step ${step + 1}: ${ref}`);
    assert.equal(await line.getAttribute('data-top-agrees'), 'true');
    // The KL over the whole vocabulary is at least the KL over a coarser
    // partition (the tokens both step tables list, and the rest), which the
    // export's tables give exactly. (decode --kl-against gives step 1's
    // figure to the digit; later steps only in size, since the browser's
    // sums, in another order, round a few 8-bit inputs the other way.)
    const kl = await attr('data-kl');
    const coarse = coarseKl(doc.runs[1].steps[step].top, doc.runs[0].steps[step].top);
    assert.ok(coarse > 0 && kl >= coarse * (1 - 1e-3) && kl < 1e-3, `step ${step + 1}: ${kl} ≥ ${coarse}`);
    // `decode --model www/models/kjv-gpt2 --quantize q8_0 --kl-against
    // www/models/kjv-gpt2 --prompt 'In the beginning God created' --config
    // '{"do_sample": false, "max_new_tokens": 8}' --json`: drift[0].kl[0].
    if (step === 0) assert.ok(Math.abs(kl - 7.926650256961176e-05) < 1e-3 * kl, `step 1: ${kl}`);
    assert.match(await line.textContent(), /^Q8_0 weights against bundled F16: KL \d\.\d·10⁻[⁰¹²³⁴⁵⁶⁷⁸⁹]+ nats\. Both put “.+” first/);
    // Lane 2 runs full precision: nothing to measure there.
    assert.equal(await page.locator('.compare [data-testid="drift"]').count(), 1);
    // A model beside a copy of itself: one vocabulary, rows lined up by id.
    assert.equal(await page.locator('[data-testid="compare-by-text"]').count(), 0);
  }
  // The what-if sandbox tries lane 2's step on lane 2's own model (F16), not
  // on the page's 8-bit one.
  await page.click('[data-testid="compare-lane"][data-lane="1"] [data-testid="open-sandbox"]');
  await page.waitForSelector('[data-testid="sandbox-source"][data-lane="1"][data-step="5"]');
  await page.waitForSelector('[data-testid="sandbox-row"].chosen');
  const tried = Number(await page.getAttribute('[data-testid="sandbox-row"].chosen', 'data-prob'));
  const [full, eight] = [doc.runs[1].steps[5].chosen_raw_prob, doc.runs[0].steps[5].chosen_raw_prob];
  assert.ok(Math.abs(full - eight) > 1e-4, `the two models differ here: ${full} ${eight}`);
  assert.ok(Math.abs(tried - full) < 1e-6, `sandbox ${tried}, lane 2 ${full}, lane 1 ${eight}`);
  await page.close();
  assert.deepEqual(env.errors, []);
});

test('an 8-bit lane with no full-precision copy loaded says how to get one; in Chinese the line speaks Chinese', async () => {
  const page = await env.open(driftLink([]));
  await readyWith(page, 'Q8_0');
  await waitRunDone(page, 0, 240_000);
  await page.click('[data-testid="lane-0"] [data-testid="lane-text"] [data-testid="token"] >> nth=0');
  await page.waitForSelector('[data-testid="step-table"] [data-testid="drift"][data-state="no-reference"]');
  assert.match(await drift(page).textContent(), /name the same model as stored in another lane/);
  await page.close();
  const zh = await env.open(driftLink([null, 'bundled'], 'zh-CN'));
  await readyWith(zh, 'Q8_0');
  await waitRunDone(zh, 0, 240_000);
  await zh.click('[data-testid="lane-0"] [data-testid="lane-text"] [data-testid="token"] >> nth=1');
  await zh.waitForSelector('[data-testid="step-table"] [data-testid="drift"][data-state="measured"]', { timeout: 60_000 });
  assert.match(await drift(zh).textContent(), /KL 散度 .* 奈特。两者都把“.+”排在第一/);
  const words = (await englishChrome(zh)).filter((w) => / in drift/.test(w));
  assert.deepEqual(words, []);
  await zh.close();
  assert.deepEqual(env.errors, []);
});

test('the lesson "What 8 bits cost" loads its model in 8 bits, shows its recordings, and live runs write them exactly, with a KL line under each 8-bit lane', async () => {
  const recording = (n) => JSON.parse(readFileSync(join(ROOT, `www/lessons/recordings/eight-bits-${n}.json`), 'utf8'));
  const page = await env.open('?lesson=lessons/eight-bits.json');
  await page.waitForSelector('[data-testid="lesson-player"]');
  await recordingShown(page);
  await readyWith(page, 'Q8_0 \\(quantized at load from F16\\)');
  // A recording does not say which weights wrote it: no line until a run here.
  assert.equal(await page.locator('.compare [data-testid="drift"]').count(), 0);
  for (const [n, right] of [[1, 0], [2, 1]]) {
    if (n === 2) {
      await page.click('[data-testid="lesson-next"]');
      await recordingShown(page);
    }
    await page.click(`[data-testid="question-choice"] >> nth=${right}`);
    await page.click('[data-testid="question-answer"]');
    await page.waitForSelector('[data-testid="reveal"]');
    assert.equal(await page.getAttribute('[data-testid="reveal-verdict"]', 'data-right'), 'true');
    await runAll(page, 240_000);
    const doc = await exported(page);
    // The browser's 8 bits write what `lesson record` wrote natively: in
    // step 2 lanes 1 and 2 part at step 20, on a race won by a hair.
    assert.deepEqual(doc.runs.map((r) => r.token_ids), recording(n).runs.map((r) => r.token_ids), `step ${n}`);
    assert.deepEqual(doc.runs.map((r) => r.model?.name ?? null), [null, 'bundled', null, 'bundled']);
    const at = n === 1 ? 0 : 19;
    await page.click(`[data-testid="lane-0"] [data-testid="lane-text"] [data-testid="token"] >> nth=${at}`);
    await page.waitForFunction(() => document.querySelectorAll('.compare [data-testid="drift"][data-state="measured"]').length === 2, null, { timeout: 60_000 });
    const lines = page.locator('.compare [data-testid="drift"]');
    assert.equal(await lines.count(), 2, 'lanes 1 and 3 run in 8 bits, lanes 2 and 4 as stored');
    for (let i = 0; i < 2; i++) {
      const kl = Number(await lines.nth(i).getAttribute('data-kl'));
      assert.ok(kl > 0 && kl < 1e-3, `step ${n}, line ${i + 1}: ${kl}`);
    }
  }
  const parted = page.locator('.compare [data-testid="drift"]').first();
  assert.equal(await parted.getAttribute('data-top-agrees'), 'true', '“,” is on top in both; the draw chose otherwise');
  await page.close();
  assert.deepEqual(env.errors, []);
});
