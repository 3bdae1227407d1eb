// The beam search as a tree on the page: a beam lane run in the browser is
// drawn as the tree `decode --json`'s steps give natively
// (tests/fixtures/native-beam-tree.json), box for box; a box opens its
// step's tables in every lane; the tree saves as JSON and SVG; the panel
// passes an accessibility audit in light and dark; the lesson built on it
// asks before it shows; in Chinese on a phone it speaks Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { start, modelReady, waitRunDone, openEditor, recordingShown, ARTIFACTS } from './harness.mjs';
import { englishChrome } from './chrome_words.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NATIVE = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/native-beam-tree.json'), 'utf8'));
const FATES = ['kept', 'finished', 'dropped'];

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

async function setLaneJson(page, lane, config) {
  await openEditor(page, lane);
  const box = page.locator(`[data-testid="lane-json-${lane}"]`);
  await box.evaluate((el) => { el.closest('details').open = true; });
  await box.fill(JSON.stringify(config));
  await box.dispatchEvent('change');
}

async function saved(page, testid) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${testid}"]`)]);
  return { name: d.suggestedFilename(), text: readFileSync(await d.path(), 'utf8') };
}

/// The drawn boxes, in node order: [node, step, fate, on the answer].
async function drawn(page) {
  const boxes = await page.$$eval('[data-testid="beam-tree-node"]', (ns) => ns.map((n) => [
    Number(n.dataset.node), Number(n.dataset.step), n.dataset.fate, n.dataset.answer === 'true',
  ]));
  return boxes.sort((a, b) => a[0] - b[0]);
}

function nativeBoxes() {
  return NATIVE.tree.nodes.map((n, i) => [i, n.step, n.fate, !!n.on_answer]);
}

/// The tree's nodes as the page saved them, against the native tree: the
/// same shape and tokens, scores within float noise.
function sameTree(tree) {
  const shape = (t) => t.nodes.map((n) => [n.parent ?? -1, n.step, n.token_id, n.fate, n.returned ?? -1, !!n.on_answer]);
  assert.deepEqual(shape(tree), shape(NATIVE.tree));
  tree.nodes.forEach((n, i) => {
    const want = NATIVE.tree.nodes[i].score;
    assert.ok(Math.abs(n.score - want) <= 1e-4 * Math.max(1, Math.abs(want)), `node ${i}: ${n.score} vs ${want}`);
  });
}

test('a beam lane run in the browser draws the tree decode\'s steps give, and a box opens its step in every lane', async () => {
  const page = await env.open('?model=bundled');
  await page.setViewportSize({ width: 1440, height: 900 });
  await modelReady(page);
  await page.fill('[data-testid="prompt"]', NATIVE.prompt);
  await setLaneJson(page, 0, { max_new_tokens: 8 });
  await setLaneJson(page, 1, NATIVE.config);
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="run"]');
  await waitRunDone(page, before);
  await page.waitForSelector('[data-testid="beam-tree-svg"]');
  const laneText = (await page.innerText('[data-testid="lane-1"] [data-testid="lane-text"]')).replace(/\s+/g, ' ').trim();
  assert.ok(laneText.startsWith(NATIVE.text.replace(/\s+/g, ' ').trim()), laneText);
  assert.deepEqual(await drawn(page), nativeBoxes(), 'every continuation drawn, as decode gives it');
  const count = (fate) => NATIVE.tree.nodes.filter((n) => n.fate === fate).length;
  assert.equal(await page.innerText('[data-testid="beam-tree-summary"]'),
    `Lane 2 weighed ${NATIVE.tree.nodes.length} continuations over ${NATIVE.tree.steps} steps: ${count('kept')} went on as beams, ${count('finished')} ended as hypotheses, ${count('dropped')} were dropped.`);
  // The answer's boxes say ★ where it ends, #2 where the second sequence does.
  const labels = await page.$$eval('[data-testid="beam-tree-node"]', (ns) => ns.map((n) => n.getAttribute('aria-label')));
  assert.equal(labels.filter((l) => / ★ /.test(l)).length, 1);
  assert.equal(labels.filter((l) => / #2 /.test(l)).length, 1);
  const json = await saved(page, 'beam-tree-export-json');
  assert.equal(json.name, 'beam-tree.json');
  const doc = JSON.parse(json.text);
  assert.equal(doc.prompt, NATIVE.prompt);
  assert.equal(doc.lane, 2);
  sameTree(doc.tree);
  await page.locator('[data-testid="beam-tree"]').screenshot({ path: join(ARTIFACTS, 'beam-tree-1440.png') });
  const svg = await saved(page, 'beam-tree-export-svg');
  assert.equal(svg.name, 'beam-tree.svg');
  assert.match(svg.text, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg.text, /<style>[^<]*\.tree-svg/);
  assert.equal((svg.text.match(/data-testid="beam-tree-node"/g) ?? []).length, NATIVE.tree.nodes.length);
  // A box from the fourth step, by keyboard: its step opens in every lane's tables.
  const pick = NATIVE.tree.nodes.findIndex((n) => n.step === 3 && n.on_answer);
  await page.press(`[data-testid="beam-tree-node"][data-node="${pick}"]`, 'Enter');
  await page.waitForSelector('[data-testid="compare"][data-step="3"]');
  assert.equal(await page.getAttribute(`[data-testid="beam-tree-node"][data-node="${pick}"]`, 'aria-pressed'), 'true');
  const path = [];
  for (let i = pick; i !== undefined && i !== null; i = NATIVE.tree.nodes[i].parent) path.unshift(NATIVE.tree.nodes[i].token);
  const shown = (await page.innerText('[data-testid="beam-tree-path-text"]')).replace(/␣/g, ' ').replace(/↵/g, '\n');
  assert.equal(shown, path.join(''));
  // The step's beam table lists the box's token among the continuations weighed.
  const tokens = await page.$$eval('[data-testid="beam-candidate"]', (rows) => rows.map((r) => r.innerText));
  assert.ok(tokens.some((t) => t.includes(NATIVE.tree.nodes[pick].token.trim())), JSON.stringify(tokens.slice(0, 8)));
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    const result = await new AxeBuilder({ page }).include('[data-testid="beam-tree"]').analyze();
    assert.deepEqual(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`), [], scheme);
  }
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('the lesson asks where beam search\'s answer began, then its recording\'s tree shows it', async () => {
  const page = await env.open('?lesson=lessons/beam-vs-greedy.json');
  await page.waitForSelector('[data-testid="lesson-player"]');
  await page.click('[data-testid="lesson-next"]');
  await recordingShown(page);
  await page.waitForSelector('[data-testid="question"]');
  assert.equal(await page.locator('[data-testid="beam-tree"]').count(), 0, 'the tree stays veiled until the class has guessed');
  await page.click('[data-testid="question-choice"] >> nth=2');
  await page.click('[data-testid="question-answer"]');
  await page.waitForSelector('[data-testid="reveal"]');
  assert.equal(await page.getAttribute('[data-testid="reveal-verdict"]', 'data-right'), 'true');
  await page.waitForSelector('[data-testid="beam-tree-svg"]');
  // The recording's tree is the native one: the answer leaves from the third box of the first step.
  assert.deepEqual(await drawn(page), nativeBoxes());
  const first = await page.$$eval('[data-testid="beam-tree-node"][data-step="0"]', (ns) => ns.map((n) => n.dataset.answer));
  assert.deepEqual(first, ['false', 'false', 'true', 'false', 'false', 'false']);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('in Chinese on a phone the beam tree speaks Chinese', async () => {
  const page = await env.open('?lesson=lessons/beam-vs-greedy.zh-CN.json&lang=zh-CN');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForSelector('[data-testid="lesson-player"]');
  await page.click('[data-testid="lesson-next"]');
  await recordingShown(page);
  await page.click('[data-testid="question-choice"] >> nth=2');
  await page.click('[data-testid="question-answer"]');
  await page.waitForSelector('[data-testid="beam-tree-svg"]');
  assert.match(await page.innerText('[data-testid="beam-tree-summary"]'), /^通道 2 在 8 步中权衡了 48 个续写/);
  const words = (await englishChrome(page)).filter((w) => / in beam-tree/.test(w));
  assert.deepEqual(words, [], `English in the Chinese beam tree: ${words.join(', ')}`);
  await page.close();
});
