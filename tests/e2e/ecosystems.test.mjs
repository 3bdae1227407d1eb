// Two ecosystems side by side: llama.cpp lanes beside HF lanes, their knobs,
// their funnels in their own order, the preset that shows the difference,
// and a share link that keeps a lane's ecosystem.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, modelReady, runAll, laneTexts, openEditor } from './harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const stages = (page, lane) => page.$$eval(
  `[data-testid="compare-lane"][data-lane="${lane}"] .funnel li`, (els) => els.map((e) => e.dataset.stage));

test('the "same knobs, two ecosystems" preset runs an HF and a llama.cpp lane whose funnels show each order', async () => {
  const page = await env.open();
  await modelReady(page);
  await page.selectOption('[data-testid="preset"]', { label: 'Same knobs, two ecosystems' });
  assert.match(await page.textContent('[data-testid="preset-notice"]'), /llama\.cpp cuts/);
  assert.match(await page.textContent('[data-testid="lane-1"] [data-testid="lane-summary"]'), /^llama\.cpp/);
  // Where a name means something else, the lane says so before any run.
  const warnings = await page.textContent('[data-testid="lane-1"] [data-testid="lane-warnings"]');
  assert.match(warnings, /temperature acts after top_k, top_p, min_p here/);
  assert.match(warnings, /repeat_last_n/);
  assert.match(await page.textContent('[data-testid="lane-3"] [data-testid="lane-warnings"]'), /top_k 40, top_p 0\.95 and min_p 0\.05/);
  await runAll(page);
  const texts = await laneTexts(page);
  assert.ok(texts.every((t) => t.length > 0), JSON.stringify(texts));
  await page.click('[data-testid="grid-cell"][data-lane="1"][data-step="0"]');
  await page.waitForSelector('[data-testid="compare"][data-step="0"]');
  assert.deepEqual(await stages(page, 0), ['model', 'repetition_penalty', 'temperature', 'top_k', 'top_p', 'min_p']);
  assert.deepEqual(await stages(page, 1), ['model', 'llama.cpp:penalties', 'llama.cpp:top_k', 'llama.cpp:top_p', 'llama.cpp:min_p', 'llama.cpp:temperature']);
  // The two lanes diverge somewhere, and the note explains the llama.cpp side.
  const note = page.locator('[data-testid="divergence"]');
  if (await note.count()) assert.match(await note.textContent(), /Lane \d/);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('a lane switches ecosystem: its knobs take llama-server names and defaults, a bad one is refused by name, and it runs', async () => {
  const page = await env.open();
  await modelReady(page);
  await openEditor(page, 0);
  await page.selectOption('[data-testid="lane-0"] [data-testid="ecosystem-0"]', 'llama.cpp');
  const lane = '[data-testid="lane-0"]';
  assert.equal(await page.locator(`${lane} [data-knob="repeat_penalty"]`).count(), 1);
  assert.equal(await page.locator(`${lane} [data-knob="repetition_penalty"]`).count(), 0);
  assert.equal(await page.getAttribute(`${lane} [data-knob="top_k"]`, 'placeholder'), '40');
  assert.match(await page.textContent(`[data-testid="llama-chain-0"]`), /penalties → dry → top_n_sigma → top_k → typ_p → top_p → min_p → xtc → temperature → dist/);
  // Greedy (the default lane) became llama.cpp's greedy: temperature 0.
  assert.equal(JSON.parse(await page.inputValue('[data-testid="lane-json-0"]')).temperature, 0);
  const fill = async (knob, value) => {
    const input = page.locator(`${lane} [data-knob="${knob}"]`);
    await input.fill(String(value));
    await input.dispatchEvent('change');
  };
  await fill('samplers', 'top_k, temprature');
  assert.match(await page.textContent(`${lane} [data-testid="lane-error"]`), /did you mean `temperature`/);
  await fill('samplers', 'top_k, temperature');
  await fill('temperature', 0.9);
  await fill('seed', 5);
  await fill('n_predict', 8);
  assert.equal(await page.locator(`${lane} [data-testid="lane-error"]`).count(), 0);
  assert.match(await page.textContent(`[data-testid="llama-chain-0"]`), /top_k → temperature → dist/);
  await runAll(page);
  assert.equal(await page.getAttribute(`${lane} [data-testid="lane-status"]`, 'data-stop'), 'max_new_tokens');
  await page.click('[data-testid="grid-cell"][data-lane="0"][data-step="0"]');
  assert.deepEqual(await stages(page, 0), ['model', 'llama.cpp:top_k', 'llama.cpp:temperature']);
  // Back to transformers: a sampling lane with the same temperature and seed.
  await page.selectOption('[data-testid="lane-0"] [data-testid="ecosystem-0"]', 'transformers');
  const json = JSON.parse(await page.inputValue('[data-testid="lane-json-0"]'));
  assert.deepEqual([json.do_sample, json.temperature, json.seed, json.max_new_tokens], [true, 0.9, 5, 8]);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('a share link keeps each lane\'s ecosystem and knobs', async () => {
  const page = await env.open();
  await modelReady(page);
  await page.selectOption('[data-testid="preset"]', { label: 'Same knobs, two ecosystems' });
  await page.click('[data-testid="share"]');
  const link = await page.inputValue('[data-testid="share-link"]');
  const shared = await env.context.newPage();
  await shared.goto(link);
  await modelReady(shared);
  const json = JSON.parse(await shared.inputValue('[data-testid="lane-json-1"]'));
  assert.equal(json.semantics, 'llama.cpp');
  assert.equal(json.repeat_penalty, 1.1);
  assert.equal(JSON.parse(await shared.inputValue('[data-testid="lane-json-0"]')).repetition_penalty, 1.1);
  await shared.close();
  await page.close();
});
