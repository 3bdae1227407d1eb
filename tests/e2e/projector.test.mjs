// Projector mode (?present=1 and its button): large type for a lecture hall,
// dark on white, no editors, one thing on screen at a time (the lanes, or one
// step's table in every lane), driven by the arrows, Page Up / Down (what a
// presenter's clicker sends), Space and Esc; nothing wider than 1024 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { start, modelReady, ROOT, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await start({ isolated: false }); });
after(async () => { await env?.close(); });

const LESSON = 'lessons/walk-003-four-knobs.json';
const lesson = JSON.parse(readFileSync(join(ROOT, 'www', LESSON), 'utf8'));
const count = (page, sel) => page.locator(sel).count();

/// Serious or critical accessibility findings on the page as it is now.
async function audit(page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/// How far the page is wider than its window (0: no sideways scrolling).
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/// The smallest computed font size of the lanes' texts, in px.
const laneTextPx = (page) => page.$$eval('[data-testid="lane-text"]', (els) =>
  Math.min(...els.map((e) => parseFloat(getComputedStyle(e).fontSize))));

test('projector mode at 1024×768: large lane text, no editors, keys step through reveal, tokens and lesson steps', async () => {
  const page = await env.open(`?lesson=${LESSON}&present=1`);
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.waitForSelector('.page.present [data-testid="question"]');
  // The recording shows while the model loads; no need to wait for it.
  await page.waitForSelector('[data-testid="lesson-recorded"]');
  assert.equal(await count(page, '[data-testid="lane-veiled"]'), 1, 'the question hides the step\'s one lane');
  // No editors: no prompt box, knob editors, inspector, sandbox, share panel or plots.
  for (const id of ['prompt', 'lane-edit', 'inspector', 'sandbox', 'share', 'score-text', 'preset']) {
    assert.equal(await count(page, `[data-testid="${id}"]`), 0, id);
  }
  assert.equal(await count(page, '.overview'), 0);
  assert.equal(await page.innerText('[data-testid="embed-prompt"]'), `Prompt: ${lesson.steps[0].prompt}`);
  assert.match(await page.innerText('[data-testid="present-keys"]'), /Space reveals/);
  assert.equal(await page.getAttribute('[data-testid="present-toggle"]', 'aria-pressed'), 'true');
  // Dark on white whatever the system asks.
  const colors = await page.$eval('.page', (e) => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]);
  assert.deepEqual(colors, ['rgb(0, 0, 0)', 'rgb(255, 255, 255)']);
  assert.equal(await overflow(page), 0, 'question state: no sideways scrolling');
  assert.deepEqual(await audit(page), [], 'question state');

  // Space: the class guessed aloud; the answer and then the lanes show.
  await page.keyboard.press('Space');
  await page.waitForSelector('[data-testid="reveal"]');
  assert.match(await page.innerText('[data-testid="reveal-verdict"]'), /without guessing/);
  // The answer is scrolled into sight, the lanes under it.
  await page.waitForFunction(() => {
    const top = document.querySelector('[data-testid="quiz"]').getBoundingClientRect().top;
    const bottom = document.documentElement.getBoundingClientRect().bottom;
    // At the top of the window, or as near as the page's end allows.
    return Math.abs(top) < 2 || (top > 0 && Math.abs(bottom - window.innerHeight) < 2);
  });
  await page.waitForSelector('[data-testid="lane-text"]');
  assert.equal(await count(page, '[data-testid="lane-text"]'), 1, 'the step\'s one lane');
  assert.ok(await laneTextPx(page) >= 24, `lane text ${await laneTextPx(page)} px`);
  assert.equal(await overflow(page), 0, 'lanes: no sideways scrolling');
  assert.deepEqual(await audit(page), [], 'lanes state');
  await page.screenshot({ path: join(ARTIFACTS, 'projector-lanes-1024.png') });

  // Step 1 asks for one token: → opens its table, and there is no second.
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-testid="compare"][data-step="0"]');
  assert.equal(await count(page, '.lanes'), 0, 'one thing at a time');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.lanes');
  assert.equal(await count(page, '[data-testid="compare"]'), 0);

  // Page Down (a clicker): the next lesson step, on its recorded lanes.
  const stepLabel = () => page.innerText('[data-testid="lesson-step"]');
  assert.match(await stepLabel(), /Step 1 of 8/);
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => /Step 2 of 8/.test(document.querySelector('[data-testid="lesson-step"]').innerText));
  await page.waitForSelector('[data-testid="lesson-recorded"]');
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'a new step opens at its prose');
  await page.screenshot({ path: join(ARTIFACTS, 'projector-step-1024.png') });
  // →: the first step's table in every lane, and the lanes go; → again moves it.
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-testid="compare"][data-step="0"]');
  assert.equal(await count(page, '.lanes'), 0, 'one thing at a time');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-testid="compare"][data-step="1"]');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('[data-testid="compare"][data-step="0"]');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-testid="compare"][data-step="1"]');
  assert.equal(await overflow(page), 0, 'table: no sideways scrolling');
  const tableText = await page.$eval('.compare-table td.token', (e) => parseFloat(getComputedStyle(e).fontSize));
  assert.ok(tableText >= 20, `table text ${tableText} px`);
  assert.deepEqual(await audit(page), [], 'table state');
  await page.screenshot({ path: join(ARTIFACTS, 'projector-table-1024.png') });
  // Esc: back to the lanes; Page Up (or ↑) the step before, its answer kept.
  await page.keyboard.press('Escape');
  await page.waitForSelector('.lanes');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => /Step 1 of 8/.test(document.querySelector('[data-testid="lesson-step"]').innerText));
  assert.equal(await count(page, '[data-testid="reveal"]'), 1, 'the answer shown is kept');
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('at 1280×720 the lane text is at least 24 px and the button leaves and re-enters the mode, keeping it in the address', async () => {
  const page = await env.open(`?lesson=${LESSON}`);
  await page.setViewportSize({ width: 1280, height: 720 });
  await modelReady(page);
  await page.click('[data-testid="present-toggle"]');
  await page.waitForSelector('.page.present');
  assert.match(page.url(), /[?&]present=1/);
  assert.equal(await count(page, '[data-testid="prompt"]'), 0);
  // A live run in projector mode: Run is there, and the lanes fill.
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="run"]');
  await page.waitForFunction((b) => Number(document.querySelector('.page').dataset.run) > b
    && document.querySelector('.page').dataset.running === 'false', before);
  // Run was clicked and keeps focus, yet Space reveals the answer rather than running again.
  await page.keyboard.press('Space');
  await page.waitForSelector('[data-testid="reveal"]');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="lane-status"]')].every((e) => e.dataset.stop));
  assert.equal(Number(await page.getAttribute('.page', 'data-run')), before + 1, 'one run, not two');
  // A button focused otherwise than by a click (Tab, a script) keeps its Space: here Next.
  await page.focus('[data-testid="lesson-next"]');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => /Step 2 of 8/.test(document.querySelector('[data-testid="lesson-step"]').innerText));
  assert.ok(await laneTextPx(page) >= 24, `lane text ${await laneTextPx(page)} px`);
  assert.equal(await overflow(page), 0);
  await page.screenshot({ path: join(ARTIFACTS, 'projector-lanes-1280.png') });
  // Outside projector mode the keys are the page's own again.
  await page.click('[data-testid="present-toggle"]');
  await page.waitForSelector('.page:not(.present) [data-testid="prompt"]');
  assert.doesNotMatch(page.url(), /present=/);
  await page.keyboard.press('PageDown');
  assert.match(await page.innerText('[data-testid="lesson-step"]'), /Step 2 of 8/);
  // A reload keeps what the address says.
  await page.click('[data-testid="present-toggle"]');
  await page.reload();
  await page.waitForSelector('.page.present');
  assert.deepEqual(env.errors, []);
  await page.close();
});
