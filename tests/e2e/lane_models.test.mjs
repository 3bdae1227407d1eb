// A model per lane on the page ("is it the knobs or the model?"): a lane
// names its own model in its model box or its JSON; the lane says what the
// model costs before anything downloads, loads it with its own progress when
// Run is pressed (the page's model stays), and writes exactly what that model
// writes as the page's only model. Two vocabularies: the compare view lines
// the tables up by text and says so. A share link carries each lane's model;
// a model that cannot load, or a name that is no model, is said on its lane;
// the lesson built on it asks first, then its recording is a live run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { start, modelReady, runAll, waitRunDone, openEditor, laneTexts, recordingShown, ROOT } from './harness.mjs';
import { englishChrome } from './chrome_words.mjs';

const MINIGPT = 'models/tutorial-minigpt/';
const PROMPT = 'And God said';
const LANE = { do_sample: false, max_new_tokens: 12 };
let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const link = (state) => '#run=1.' + deflateRawSync(Buffer.from(JSON.stringify(state))).toString('base64url');

async function exported(page) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-json"]')]);
  const chunks = [];
  for await (const c of await d.createReadStream()) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function typeModel(page, lane, name) {
  await openEditor(page, lane);
  const box = page.locator(`[data-testid="lane-model-input-${lane}"]`);
  await box.fill(name);
  await box.dispatchEvent('change');
}

const modelLine = (page, lane) => page.locator(`[data-testid="lane-${lane}"] [data-testid="lane-model"]`);

/** The MiniGPT as the page's only model, its lanes run from a link: the document. */
async function minigptAlone() {
  const page = await env.context.newPage();
  await page.goto(env.base + '?model=bundled' + link({ prompt: PROMPT, lanes: [LANE], model: MINIGPT }));
  await page.waitForSelector('[data-testid="confirm-load"]', { timeout: 60_000 });
  await page.click('[data-testid="confirm-load"]');
  await modelReady(page);
  await page.waitForFunction(() => document.querySelector('[data-testid="lane-status"]')?.dataset.stop, null, { timeout: 120_000 });
  const doc = await exported(page);
  await page.close();
  return doc;
}

test('a lane on its own model says its cost before any download, loads on Run, and writes what that model writes alone', async () => {
  const alone = await minigptAlone();
  const page = await env.open('?model=bundled' + link({ prompt: PROMPT, lanes: [LANE, LANE], model: 'bundled' }));
  await modelReady(page);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="lane-status"]')].every((s) => s.dataset.stop), null, { timeout: 120_000 });
  const [kjvText] = await laneTexts(page);

  // Named: the cost at once, nothing downloaded.
  const fetched = [];
  page.on('request', (r) => { if (r.url().includes('tutorial-minigpt/minigpt.pt')) fetched.push(r.method()); });
  await typeModel(page, 1, MINIGPT);
  await page.waitForSelector('[data-testid="lane-1"] [data-testid="lane-model"][data-status="sized"]', { timeout: 60_000 });
  const line = await modelLine(page, 1).textContent();
  assert.match(line, /^On models\/tutorial-minigpt\/ · /);
  assert.match(line, /6\.4 MB to download, about [\d.]+ MB in memory/, line);
  assert.ok(!fetched.includes('GET'), `nothing downloaded before Run: ${fetched}`);
  assert.equal(await page.locator('[data-testid="lane-0"] [data-testid="lane-model"]').count(), 0);

  // Run: it loads (its own progress; the page's model stays ready), then both lanes run.
  await runAll(page, 180_000);
  assert.equal(await modelLine(page, 1).getAttribute('data-status'), 'ready');
  assert.match(await modelLine(page, 1).textContent(), /loaded: \d+ layers, \d+ tokens/);
  assert.equal(await page.getAttribute('[data-testid="model-status"]', 'data-state'), 'ready');
  const doc = await exported(page);
  assert.equal(doc.runs.length, 2);
  assert.equal(doc.runs[1].model.name, MINIGPT);
  assert.deepEqual(doc.runs[1].model.prompt_ids, alone.prompt_ids, "the MiniGPT's own tokens of the prompt");
  assert.deepEqual(doc.runs[1].token_ids, alone.runs[0].token_ids, 'exactly the MiniGPT alone');
  assert.equal(doc.runs[1].text, alone.runs[0].text);
  assert.equal(doc.runs[0].model, undefined, "lane 1 is on the page's model");
  const texts = await laneTexts(page);
  assert.equal(texts[0], kjvText, "lane 1 still writes the page model's text");
  assert.notEqual(texts[1], texts[0]);
  // Where they part is said by text: KJV GPT-2's "," against the MiniGPT's " unto", each its first step.
  const parted = await page.$$eval('[data-testid="divergence-text"] li', (ls) => ls.map((l) => [l.dataset.lane, l.dataset.step, l.textContent]));
  assert.deepEqual(parted.map(([lane, step]) => [lane, step]), [['0', '0'], ['1', '0']]);
  assert.match(parted[0][2], /“,”/);
  assert.match(parted[1][2], /“␣unto”/);
  assert.match(await page.textContent('[data-testid="divergence-text"] strong'), /differ from the first character/);

  // Two vocabularies: the tables line up by text, and the page says so.
  await page.click('[data-testid="lane-1"] [data-testid="lane-text"] [data-step="0"]');
  await page.waitForSelector('[data-testid="compare-by-text"]');
  assert.equal(await page.locator('[data-testid="branch"]').count(), 0, 'no branch across vocabularies');
  const rows = await page.$$eval('[data-testid="compare"] tbody', (bodies) => bodies.map((b) => b.querySelectorAll('tr').length));
  assert.ok(rows.every((n) => n === rows[0]), `every lane's table has the same rows: ${rows}`);
  assert.equal(await page.locator('[data-testid="divergence"]').count(), 0, 'no id-wise divergence across models');
  // The logit lens runs per lane on each lane's own model: one grid each, no error.
  await page.click('[data-testid="lens-toggle"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="lens-grid"]').length === 2, null, { timeout: 120_000 });
  const lensRows = await page.$$eval('[data-testid="lens-grid"]', (gs) => gs.map((g) => g.querySelectorAll('[data-testid="lens-row"]').length));
  assert.deepEqual(lensRows, [4, 4], "a row per layer of each lane's model (both have 4)");
  assert.equal(await page.locator('[data-testid="error"]').count(), 0);

  // The share link carries lane 2's model; opened, it runs the same.
  await page.click('[data-testid="share"]');
  const shared = await page.inputValue('[data-testid="share-link"]');
  await page.close();
  const again = await env.context.newPage();
  await again.goto(shared);
  await modelReady(again);
  await again.waitForFunction(() => [...document.querySelectorAll('[data-testid="lane-status"]')].filter((s) => s.dataset.stop).length === 2, null, { timeout: 180_000 });
  assert.equal(await modelLine(again, 1).getAttribute('data-model'), MINIGPT);
  assert.deepEqual(await laneTexts(again), texts);
  await again.close();
});

test('a name that is no model is refused on its lane; a folder that is not there fails its lane alone and the other lane runs', async () => {
  const page = await env.open('?model=bundled' + link({ prompt: PROMPT, lanes: [LANE, LANE], model: 'bundled' }));
  await modelReady(page);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="lane-status"]')].every((s) => s.dataset.stop), null, { timeout: 120_000 });
  await typeModel(page, 1, '../secret/');
  assert.match(await page.textContent('[data-testid="lane-1"] [data-testid="lane-error"]'), /`\.\.\/secret\/` is not a model the page can load/);
  const [firstText] = await laneTexts(page);
  await typeModel(page, 1, 'models/not-here/');
  const ran = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="run"]');
  await page.waitForSelector('[data-testid="lane-1"] [data-testid="lane-model"][data-status="failed"]', { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid="lane-1"] [data-testid="lane-error"]'), /models\/not-here\//);
  // That lane alone fails: the other runs, in its own place.
  await page.waitForFunction((prev) => {
    const d = document.querySelector('.page').dataset;
    const s = document.querySelector('[data-testid="lane-0"] [data-testid="lane-status"]');
    return Number(d.run) > prev && d.running === 'false' && s?.dataset.stop && s.dataset.run === d.run;
  }, ran, { timeout: 120_000 });
  assert.equal(await page.locator('[data-testid="lane-1"] [data-testid="lane-text"] [data-testid="token"]').count(), 0, 'lane 2 wrote nothing');
  assert.equal((await laneTexts(page))[0], firstText, 'lane 1 wrote what it wrote before');
  const doc = await exported(page);
  assert.equal(doc.runs.length, 1, 'the export holds the lane that ran');
  // Back to the page's model: it runs.
  await typeModel(page, 1, '');
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="run"]');
  await waitRunDone(page, before);
  assert.equal(await page.getAttribute('[data-testid="model-status"]', 'data-state'), 'ready');
  await page.close();
});

test('the lesson "The knobs or the model?" asks first, shows its two-model recording, and a live run writes it exactly', async () => {
  const recording = JSON.parse(readFileSync(join(ROOT, 'www/lessons/recordings/knobs-or-model-1.json'), 'utf8'));
  const page = await env.open('?lesson=lessons/knobs-or-model.json');
  await page.waitForSelector('[data-testid="lesson-player"]');
  await recordingShown(page);
  await page.waitForSelector('[data-testid="question"]');
  assert.equal(await modelLine(page, 1).getAttribute('data-model'), MINIGPT, 'the step names lane 2\'s model');
  assert.equal(await modelLine(page, 3).getAttribute('data-model'), MINIGPT);
  assert.equal(await page.locator('[data-testid="lane-0"] [data-testid="lane-model"]').count(), 0);
  await page.click('[data-testid="question-choice"] >> nth=1');
  await page.click('[data-testid="question-answer"]');
  await page.waitForSelector('[data-testid="reveal"]');
  assert.equal(await page.getAttribute('[data-testid="reveal-verdict"]', 'data-right'), 'true');
  const squash = (s) => s.replace(/[\s↵·⏎]/g, '');
  const shown = await laneTexts(page);
  recording.runs.forEach((run, i) => assert.equal(squash(shown[i]), squash(run.text), `lane ${i + 1} shows the recording`));
  // Live: the MiniGPT loads for lanes 2 and 4, and the run is the recording.
  await modelReady(page);
  await runAll(page, 180_000);
  const doc = await exported(page);
  assert.deepEqual(doc.runs.map((r) => r.token_ids), recording.runs.map((r) => r.token_ids));
  assert.deepEqual(doc.runs.map((r) => r.model?.name ?? null), [null, MINIGPT, null, MINIGPT]);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('in Chinese on a phone, the two-model lesson speaks Chinese: its lanes\' model lines, the note on vocabularies and where the lanes part', async () => {
  const page = await env.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(env.base + '?lesson=lessons/knobs-or-model.zh-CN.json&lang=zh-CN');
  await page.waitForSelector('[data-testid="lesson-player"]');
  await recordingShown(page);
  await page.click('[data-testid="question-choice"] >> nth=1');
  await page.click('[data-testid="question-answer"]');
  await page.waitForSelector('[data-testid="reveal"]');
  await modelReady(page);
  await runAll(page, 180_000);
  assert.match(await modelLine(page, 1).textContent(), /^使用 models\/tutorial-minigpt\/ · 需下载 6\.4 MB，约占内存 [\d.]+ MB · 已加载：4 层，2048 个词元$/);
  await page.waitForSelector('[data-testid="divergence-text"]');
  assert.match(await page.textContent('[data-testid="divergence-text"] strong'), /按文字比较/);
  await page.click('[data-testid="lane-1"] [data-testid="lane-text"] [data-testid="token"] >> nth=0');
  assert.match(await page.textContent('[data-testid="compare-by-text"]'), /词表不同/);
  const words = (await englishChrome(page)).filter((w) => / in (lane-model|divergence-text|compare-by-text|lane-\d)/.test(w));
  assert.deepEqual(words, []);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `nothing wider than the phone: ${wide}`);
  await page.close();
});
