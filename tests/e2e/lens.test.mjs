// The logit lens in the compare view: shown over a finished run, the run is
// repeated with the same seeds and every layer recorded; each one-sequence
// lane gets a grid of layers × likeliest tokens whose last row is the step's
// own raw distribution; beams say why they have none; the grid passes an
// accessibility audit in both themes and reads in Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { start, modelReady, runAll, waitRunDone, laneTexts, recordingShown, ARTIFACTS } from './harness.mjs';
import { englishChrome } from './chrome_words.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const BUNDLED_LAYERS = 4;

/// Each lane's lens as the page shows it.
function grids(page) {
  return page.$$eval('[data-testid="lens-grid"]', (gs) => gs.map((g) => ({
    lane: Number(g.dataset.lane),
    layers: [...g.querySelectorAll('[data-testid="lens-row"]')].map((r) => Number(r.dataset.layer)),
    lastChosen: [...g.querySelectorAll('[data-testid="lens-chosen"]')].at(-1)?.innerText.replace(/\s+/g, ' ').trim(),
    settles: g.querySelectorAll('[data-testid="lens-settles"]').length,
    settlesAt: Number(g.querySelector('[data-testid="lens-settles"]')?.closest('[data-testid="lens-row"]').dataset.layer ?? 0),
    verdict: g.querySelector('[data-testid="lens-verdict"]')?.innerText,
  })));
}

/// The compare view's summary line of each lane: "… rank R · p P0 → P1".
function summaries(page) {
  return page.$$eval('[data-testid="compare-lane"]', (cols) => Object.fromEntries(cols.map((c) => {
    const m = c.querySelector('.summary')?.innerText.match(/rank (\d+) · p (\S+) →/);
    return [c.dataset.lane, m ? `${m[2]} #${m[1]}` : null];
  })));
}

async function lensOpen(page) {
  await modelReady(page);
  await runAll(page);
  const texts = await laneTexts(page);
  await page.click('[data-testid="lane-0"] [data-testid="token"] >> nth=2');
  await page.waitForSelector('[data-testid="compare"][data-step="2"]');
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="lens-toggle"]');
  await waitRunDone(page, before);
  await page.waitForSelector('[data-testid="lens-grid"]');
  return texts;
}

test('shown over a finished run, the lens reruns it with the same seeds and its last row is the step itself', async () => {
  const page = await env.open('?model=bundled');
  await page.setViewportSize({ width: 1440, height: 900 });
  const texts = await lensOpen(page);
  assert.deepEqual(await laneTexts(page), texts, 'the same seeds write the same texts');
  assert.equal(await page.getAttribute('[data-testid="lens-toggle"]', 'aria-pressed'), 'true');
  assert.equal(await page.getAttribute('[data-testid="compare"]', 'data-step'), '2', 'the step stays open');
  const shown = await grids(page);
  const sums = await summaries(page);
  assert.ok(shown.length >= 2, JSON.stringify(shown));
  for (const g of shown) {
    assert.deepEqual(g.layers, [1, 2, 3, 4].slice(0, BUNDLED_LAYERS), `lane ${g.lane}: a row per layer`);
    // The output row: the chosen token's probability and rank as the step table has them.
    assert.equal(g.lastChosen, sums[g.lane], `lane ${g.lane}`);
    assert.ok(g.settles <= 1 && g.verdict.length > 0);
  }
  // Lanes without a grid are lanes of many rows, and say so.
  const missing = await page.$$eval('[data-testid="lens-missing"]', (ms) => ms.map((m) => m.innerText));
  for (const m of missing) assert.match(m, /several sequences/);
  assert.equal(shown.length + missing.length, 4);
  // Moving the step moves the lens with it.
  await page.focus('[data-testid="compare"]');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-testid="compare"][data-step="3"]');
  const next = await summaries(page);
  for (const g of await grids(page)) assert.equal(g.lastChosen, next[g.lane]);
  await page.locator('[data-testid="lens"]').screenshot({ path: join(ARTIFACTS, 'lens-1440.png') });
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    const audit = await new AxeBuilder({ page }).include('[data-testid="lens"]').analyze();
    assert.deepEqual(audit.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`), [], scheme);
  }
  // Hidden, the next run records no lens (and showing it again reruns).
  await page.click('[data-testid="lens-toggle"]');
  assert.equal(await page.locator('[data-testid="lens"]').count(), 0);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('the lens reads in Chinese', async () => {
  const page = await env.open('?model=bundled&lang=zh-CN');
  await page.setViewportSize({ width: 390, height: 844 });
  await lensOpen(page);
  const heading = await page.locator('[data-testid="lens"] h3').innerText();
  assert.match(heading, /每一层/);
  const verdicts = await page.$$eval('[data-testid="lens-verdict"]', (vs) => vs.map((v) => v.innerText));
  assert.ok(verdicts.every((v) => /[\u4e00-\u9fff]/.test(v)), verdicts.join(' | '));
  assert.deepEqual((await englishChrome(page)).filter((w) => /lens/.test(w)), [], 'no English in the lens');
  await page.locator('[data-testid="lens"]').screenshot({ path: join(ARTIFACTS, 'lens-zh-CN-390.png') });
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('the logit-lens lesson asks first, then opens its first token with the lens from its recording', async () => {
  const page = await env.open('?lesson=lessons/logit-lens.json');
  await recordingShown(page);
  assert.equal(await page.locator('[data-testid="lens"]').count(), 0, 'the lanes stay veiled until the class has guessed');
  await page.click('[data-testid="question-choice"] >> nth=2');
  await page.click('[data-testid="question-answer"]');
  await page.waitForSelector('[data-testid="reveal"]');
  assert.equal(await page.getAttribute('[data-testid="reveal-verdict"]', 'data-right'), 'true');
  await page.waitForSelector('[data-testid="compare"][data-step="0"] [data-testid="lens-grid"]');
  assert.equal(await page.getAttribute('[data-testid="lens-toggle"]', 'aria-pressed'), 'true');
  const [greedy, sampled] = await grids(page);
  assert.deepEqual(greedy.layers, [1, 2, 3, 4]);
  // The question's answer is what the recording's lens shows.
  assert.equal(greedy.settlesAt, 3);
  assert.match(greedy.verdict, /after layer 3 of 4/);
  assert.deepEqual(sampled.layers, [1, 2, 3, 4]);
  assert.deepEqual(env.errors, []);
  await page.close();
});
