// Many samples as a tree on the page: one sampling lane grown 300 times in
// the browser's worker gives the branches and counts `decode --samples`
// grew natively (tests/fixtures/native-trees.json); progress shows while it
// grows and Stop keeps what grew; a branch opens its path and, followed,
// every lane's tables along it; the tree saves as JSON and SVG; the panel
// passes an accessibility audit and reads in Chinese on a phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { start, modelReady, waitRunDone, openEditor, recordingShown, ARTIFACTS } from './harness.mjs';
import { englishChrome } from './chrome_words.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/native-trees.json'), 'utf8')).trees
  .find((t) => t.model === 'www/models/kjv-gpt2');

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/// Lane `lane`'s config as JSON, through its editor's JSON box.
async function setLaneJson(page, lane, config) {
  await openEditor(page, lane);
  const box = page.locator(`[data-testid="lane-json-${lane}"]`);
  await box.evaluate((el) => { el.closest('details').open = true; });
  await box.fill(JSON.stringify(config));
  await box.dispatchEvent('change');
}

async function grow(page, { lane = 0, samples, tokens }) {
  await page.selectOption('[data-testid="tree-lane"]', String(lane));
  await page.selectOption('[data-testid="tree-samples"]', String(samples));
  await page.selectOption('[data-testid="tree-tokens"]', String(tokens));
  await page.click('[data-testid="tree-grow"]');
}

async function treeDone(page, timeout = 300_000) {
  await page.waitForSelector('[data-testid="tree-summary"]', { timeout });
  await page.waitForSelector('[data-testid="tree-grow"]', { timeout });
}

async function saved(page, testid) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${testid}"]`)]);
  return { name: d.suggestedFilename(), text: readFileSync(await d.path(), 'utf8') };
}

async function nativeSetUp(page) {
  await modelReady(page);
  await page.fill('[data-testid="prompt"]', NATIVE.prompt);
  await setLaneJson(page, 0, NATIVE.config);
}

test('grown in the browser, the tree has the branches and counts decode grew natively', async () => {
  const page = await env.open('?model=bundled');
  await page.setViewportSize({ width: 1440, height: 900 });
  await nativeSetUp(page);
  await grow(page, { samples: NATIVE.samples, tokens: NATIVE.tokens });
  await treeDone(page);
  const json = await saved(page, 'tree-export-json');
  assert.equal(json.name, 'sample-tree.json');
  const doc = JSON.parse(json.text);
  assert.equal(doc.prompt, NATIVE.prompt);
  assert.equal(doc.tree.complete, true);
  assert.equal(doc.tree.config.seed, NATIVE.config.seed);
  const nodes = doc.tree.nodes.map((n) => [n.parent ?? -1, n.token_id, n.count]);
  assert.deepEqual(nodes, NATIVE.nodes, 'the same tree as decode --samples on the same seed');
  assert.equal(doc.tree.leaves.length, NATIVE.samples);
  // Every drawn branch: its share beside its path's probability.
  const shown = await page.$$eval('[data-testid="tree-node"]', (ns) => ns.map((n) => ({ id: Number(n.dataset.node), count: Number(n.dataset.count), label: n.getAttribute('aria-label') })));
  assert.ok(shown.length >= 5, JSON.stringify(shown));
  for (const s of shown) {
    assert.equal(s.count, doc.tree.nodes[s.id].count);
    assert.match(s.label, new RegExp(`${s.count} of ${NATIVE.samples} samples`));
  }
  const summary = await page.innerText('[data-testid="tree-summary"]');
  assert.match(summary, new RegExp(`^${NATIVE.samples} samples of lane 1 \\(seed ${NATIVE.config.seed}\\), ${NATIVE.tokens} tokens each: ${NATIVE.nodes.length} branches`));
  await page.locator('[data-testid="tree"]').screenshot({ path: join(ARTIFACTS, 'tree-1440.png') });
  // The drawing saved on its own: an SVG document with its style inside.
  const svg = await saved(page, 'tree-export-svg');
  assert.equal(svg.name, 'sample-tree.svg');
  assert.match(svg.text, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg.text, /<style>[^<]*\.tree-svg/);
  assert.equal((svg.text.match(/data-testid="tree-node"/g) ?? []).length, shown.length);
});

test('a branch opens its path, and followed, every lane records its own knobs along it', async () => {
  const page = await env.open('?model=bundled');
  await page.setViewportSize({ width: 1440, height: 900 });
  await nativeSetUp(page);
  await grow(page, { samples: 100, tokens: 3 });
  await treeDone(page);
  // The most-drawn second token (the first node at depth 2 drawn).
  const deep = await page.$$eval('[data-testid="tree-node"]', (ns) => ns.map((n) => n.dataset.node));
  const pick = deep[1];
  await page.press(`[data-testid="tree-node"][data-node="${pick}"]`, 'Enter');
  await page.waitForSelector('[data-testid="tree-path"]');
  assert.equal(await page.getAttribute(`[data-testid="tree-node"][data-node="${pick}"]`, 'aria-pressed'), 'true');
  const pathText = await page.innerText('[data-testid="tree-path-text"]');
  assert.ok(pathText.length > 0);
  assert.match(await page.innerText('[data-testid="tree-path-share"]'), /of 100 samples wrote this/);
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="tree-follow"]');
  await waitRunDone(page, before);
  // The tree's lane opens at the branch's first step, every lane forced along it.
  await page.waitForSelector('[data-testid="compare"][data-step="0"]');
  const texts = await page.$$eval('[data-testid^="lane-"] [data-testid="lane-text"]', (els) => els.map((e) => e.innerText.replace(/\s+/g, '')));
  const want = pathText.replace(/␣/g, '').replace(/↵/g, '').replace(/\s+/g, '');
  for (const t of texts) assert.equal(t, want, 'every lane wrote the branch');
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    const result = await new AxeBuilder({ page }).include('[data-testid="tree"]').analyze();
    assert.deepEqual(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`), [], scheme);
  }
});

test('Stop keeps what grew; a greedy lane is refused before anything runs', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await setLaneJson(page, 0, { do_sample: true, temperature: 1.5, seed: 1 });
  await grow(page, { samples: 1000, tokens: 16 });
  await page.waitForSelector('[data-testid="tree-progress"]');
  await page.click('[data-testid="tree-cancel"]');
  await treeDone(page);
  assert.match(await page.innerText('[data-testid="tree-summary"]'), /^Stopped early/);
  await setLaneJson(page, 1, { do_sample: false });
  await grow(page, { lane: 1, samples: 10, tokens: 2 });
  assert.match(await page.innerText('[data-testid="tree-error"]'), /a tree needs a sampling lane: this lane decodes by greedy/);
});

test('in Chinese on a phone the panel speaks Chinese', async () => {
  const page = await env.open('?model=bundled&lang=zh-CN');
  await page.setViewportSize({ width: 390, height: 844 });
  await nativeSetUp(page);
  await grow(page, { samples: 50, tokens: 3 });
  await treeDone(page);
  assert.match(await page.innerText('[data-testid="tree-summary"]'), /通道 1 的 50 个样本/);
  const words = (await englishChrome(page)).filter((w) => / in tree/.test(w));
  assert.deepEqual(words, [], `English in the Chinese tree panel: ${words.join(', ')}`);
});

test('the tree lesson asks first, then its thousand samples grow: the answer is the tree', async () => {
  const page = await env.open('?lesson=lessons/sample-tree.json');
  await recordingShown(page);
  assert.equal(await page.locator('[data-testid="tree"]').count(), 0, 'the tree stays veiled until the class has guessed');
  await page.click('[data-testid="question-choice"] >> nth=1');
  await page.click('[data-testid="question-answer"]');
  await page.waitForSelector('[data-testid="reveal"]');
  assert.equal(await page.getAttribute('[data-testid="reveal-verdict"]', 'data-right'), 'true');
  // The model ready, the step's tree grows by itself: 1,000 samples × 4 tokens of lane 1.
  await modelReady(page);
  await treeDone(page);
  assert.match(await page.innerText('[data-testid="tree-summary"]'), /^1000 samples of lane 1 \(seed 3\), 4 tokens each/);
  // The question's answer: 433 of the 1,000 begin with “ God”.
  const first = await page.$eval('[data-testid="tree-node"]', (n) => ({ count: Number(n.dataset.count), label: n.getAttribute('aria-label') }));
  assert.equal(first.count, 433);
  assert.match(first.label, /“␣God”: 433 of 1000 samples/);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('projected, the lesson\'s tree shows under the lanes once revealed, filling the width, with no sideways scrolling', async () => {
  const page = await env.open('?lesson=lessons/sample-tree.json&present=1');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.waitForSelector('.page.present [data-testid="question"]');
  assert.equal(await page.locator('[data-testid="tree"]').count(), 0, 'veiled until the class has guessed');
  await page.keyboard.press('Space');
  await page.waitForSelector('[data-testid="reveal"]');
  await modelReady(page);
  await treeDone(page);
  const widths = await page.$eval('[data-testid="tree-svg"]', (svg) => ({
    drawn: svg.getBoundingClientRect().width, box: svg.closest('.tree-scroll').clientWidth,
    page: document.documentElement.scrollWidth, window: window.innerWidth,
  }));
  assert.ok(Math.abs(widths.drawn - widths.box) <= 2, JSON.stringify(widths));
  assert.ok(widths.page <= widths.window, `no sideways scrolling: ${JSON.stringify(widths)}`);
  assert.deepEqual(env.errors, []);
  await page.close();
});
