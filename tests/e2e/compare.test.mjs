// The comparison itself: one step in all four lanes at once, rows aligned by
// token, the step grid, a page that fits a screen (and a phone), keyboard
// use, and an accessibility audit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { start, modelReady, runAll, waitRunDone, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/// The page at `viewport`, run on the bundled model.
async function ranPage(viewport = { width: 1440, height: 900 }, query = '?model=bundled', colorScheme = 'light') {
  const page = await env.open(query);
  await page.setViewportSize(viewport);
  await page.emulateMedia({ colorScheme });
  await modelReady(page);
  if (!query.includes('embed')) await runAll(page);
  else await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="lane-status"]')].every((s) => s.dataset.stop));
  return page;
}

/// The compare view's step, and each lane's table as token ids in row order.
async function tables(page) {
  const step = Number(await page.getAttribute('[data-testid="compare"]', 'data-step'));
  const lanes = await page.$$eval('[data-testid="compare-lane"]', (cols) => cols.map((c) => ({
    lane: Number(c.dataset.lane),
    rows: [...c.querySelectorAll('[data-testid="compare-row"]')].map((r) => r.dataset.tokenId),
    chosen: [...c.querySelectorAll('[data-testid="compare-row"][data-chosen="true"]')].map((r) => r.dataset.tokenId),
  })));
  return { step, lanes };
}

test('a selected step shows in all four lanes at once, each token on the same row in every lane', async () => {
  const page = await ranPage();
  await page.click('[data-testid="lane-2"] [data-testid="token"] >> nth=1');
  await page.waitForSelector('[data-testid="compare"]');
  // At 1440×900 the prompt, the four texts and the view's first rows share
  // the screen: opening the step scrolled nothing away.
  const fits = await page.evaluate(() => {
    const inView = (e) => { const b = e.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; };
    return {
      scrollY,
      prompt: inView(document.querySelector('[data-testid="prompt"]')),
      texts: [...document.querySelectorAll('[data-testid="lane-text"]')].map(inView),
      rows: [...document.querySelectorAll('[data-testid="compare-lane"] [data-testid="compare-row"]')].filter(inView).length,
    };
  });
  assert.deepEqual(fits.texts, [true, true, true, true], JSON.stringify(fits));
  assert.ok(fits.scrollY === 0 && fits.prompt && fits.rows >= 4 * 4, JSON.stringify(fits));
  const { step, lanes } = await tables(page);
  assert.equal(step, 1);
  assert.deepEqual(lanes.map((l) => l.lane), [0, 1, 2, 3]);
  for (const l of lanes) {
    assert.ok(l.rows.length >= 5, `lane ${l.lane}: ${l.rows.length} rows`);
    assert.equal(l.chosen.length, 1, `lane ${l.lane} marks its one chosen token`);
  }
  // A token in two lanes' tables sits on the same row index in both.
  const shared = lanes[0].rows.filter((id) => lanes[1].rows.includes(id));
  assert.ok(shared.length > 0);
  for (const id of shared) assert.equal(lanes[0].rows.indexOf(id), lanes[1].rows.indexOf(id), `token ${id}`);
  // Each lane's chosen token is the one its text shows at that step.
  for (const l of lanes) {
    const shown = await page.locator(`[data-testid="lane-${l.lane}"] [data-testid="token"] >> nth=1`).getAttribute('data-step');
    assert.equal(shown, '1');
  }
  // The view sits under the lanes and covers none of their texts.
  const view = await page.locator('[data-testid="compare"]').boundingBox();
  for (let i = 0; i < 4; i++) {
    const text = await page.locator(`[data-testid="lane-${i}"] [data-testid="lane-text"]`).boundingBox();
    assert.ok(text.y + text.height <= view.y, `lane ${i + 1}'s text is above the compare view`);
  }
  // Sorting by another lane reorders the rows in every lane alike.
  await page.click('[data-testid="compare-lane"][data-lane="3"] button.sort');
  const sorted = await tables(page);
  for (const l of sorted.lanes) assert.deepEqual(l.rows, sorted.lanes[0].rows);
  await page.screenshot({ path: join(ARTIFACTS, 'compare-1440.png') });
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('arrow keys move the step in every lane; Home and End jump; Escape closes', async () => {
  const page = await ranPage();
  const token = page.locator('[data-testid="lane-0"] [data-testid="token"] >> nth=2');
  await token.focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid="compare"][data-step="2"]');
  // The view has taken focus: the keys work there.
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'compare');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-testid="compare"][data-step="3"]');
  const headings = await page.$$eval('[data-testid="compare-lane"] h3', (hs) => hs.map((h) => h.textContent));
  assert.equal(headings.length, 4);
  for (const h of headings) assert.match(h, /step 4/);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('[data-testid="compare"][data-step="1"]');
  await page.keyboard.press('End');
  await page.waitForSelector('[data-testid="compare"][data-step="39"]');
  await page.keyboard.press('Home');
  await page.waitForSelector('[data-testid="compare"][data-step="0"]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid="compare"]', { state: 'detached' });
  await page.close();
});

test('the step grid has a cell per lane per step, and a cell opens its step', async () => {
  const page = await ranPage();
  const steps = await page.$$eval('[data-testid="lane-status"]', (s) => s.map((e) => Number(e.textContent.match(/(\d+) tokens/)[1])));
  const cells = await page.$$eval('[data-testid="step-grid"] [data-testid="grid-cell"]', (cs) => cs.map((c) => `${c.dataset.lane}:${c.dataset.step}`));
  assert.equal(cells.length, steps.reduce((a, b) => a + b, 0));
  for (let lane = 0; lane < 4; lane++) {
    for (let s = 0; s < steps[lane]; s++) assert.ok(cells.includes(`${lane}:${s}`), `lane ${lane} step ${s}`);
  }
  await page.click('[data-testid="grid-cell"][data-lane="3"][data-step="5"]');
  await page.waitForSelector('[data-testid="compare"][data-step="5"]');
  assert.equal(await page.locator('[data-testid="compare-lane"][data-lane="3"] [data-testid="step-table"]').count(), 1);
  await page.close();
});

test('a share link made with a step open opens at that step', async () => {
  const page = await ranPage();
  await page.click('[data-testid="grid-cell"][data-lane="1"][data-step="6"]');
  await page.waitForSelector('[data-testid="compare"][data-step="6"]');
  await page.click('[data-testid="share"]');
  const link = await page.inputValue('[data-testid="share-link"]');
  const shared = await env.context.newPage();
  await shared.goto(link);
  await shared.waitForSelector('[data-testid="compare"][data-step="6"]', { timeout: 120_000 });
  assert.equal(await shared.locator('[data-testid="compare-lane"]').count(), 4);
  await shared.close();
  await page.close();
});

test('text is text: a split character shows as its bytes alike in lanes, tables and grid, and every piece names it', async () => {
  const page = await env.open('?model=bundled');
  await page.setViewportSize({ width: 1440, height: 900 });
  await modelReady(page);
  // " 🦙" is F0 9F A6 99: GPT-2 writes it as " <0xF0><0x9F>", "<0xA6>", "<0x99>".
  await page.fill('[data-testid="score-text"]', ' a 🦙 ran home');
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="score"]');
  await waitRunDone(page, before);
  const spans = await page.$$eval('[data-testid="lane-0"] [data-testid="token"]', (ts) => ts.map((t) => t.textContent));
  const lead = spans.findIndex((t) => t.includes('⟨f0 9f⟩'));
  assert.ok(lead >= 0, `the split character's first token shows its bytes: ${JSON.stringify(spans)}`);
  assert.equal(spans.filter((t) => t.includes('🦙')).length, 1, 'the token completing it shows the character');
  // Hover (and a screen reader) on any piece names the whole character and its bytes.
  for (const at of [lead, lead + 1, lead + 2]) {
    const title = await page.getAttribute(`[data-testid="lane-0"] [data-testid="token"][data-step="${at}"]`, 'title');
    assert.match(title, /part of “🦙”, bytes f0 9f a6 99, over tokens \d+–\d+/, `token ${at}: ${title}`);
  }
  // The grid and the table show the same token the same way: ␣ and bytes.
  const cell = page.locator(`[data-testid="grid-cell"][data-lane="0"][data-step="${lead}"]`);
  assert.match(await cell.textContent(), /␣⟨f0 9f⟩/);
  await cell.click();
  await page.waitForSelector(`[data-testid="compare"][data-step="${lead}"]`);
  const heading = page.locator('[data-testid="compare-lane"][data-lane="0"] h3');
  assert.match(await heading.textContent(), /chose “␣⟨f0 9f⟩”/);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('each lane folds its knobs into a summary with an Edit button', async () => {
  const page = await ranPage();
  const summary = await page.textContent('[data-testid="lane-1"] [data-testid="lane-summary"]');
  assert.match(summary, /sample · .*temperature 0\.7.*top_p 0\.9/);
  const edit = page.locator('[data-testid="lane-1"] [data-testid="lane-edit"]');
  assert.equal(await edit.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.locator('[data-testid="lane-1"] [data-knob="temperature"]').isVisible(), false);
  await edit.click();
  assert.equal(await page.locator('[data-testid="lane-1"] [data-knob="temperature"]').isVisible(), true);
  // The warning about the silent top_k=50 stays visible with the editor folded.
  await edit.click();
  assert.ok(await page.locator('[data-testid="lane-1"] [data-testid="lane-warnings"]').isVisible());
  await page.close();
});

test('on a phone nothing is wider than the screen; the compare view scrolls sideways', async () => {
  const page = await ranPage({ width: 390, height: 844 });
  await page.click('[data-testid="lane-0"] [data-testid="token"] >> nth=1');
  await page.waitForSelector('[data-testid="compare"]');
  const overflow = await page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      // Inside the sideways scrollers is where wide content belongs.
      if (r.width > 0 && r.right > innerWidth + 1 && !el.closest('.compare-lanes, .grid-scroll, .prompt-chips')) out.push(el.outerHTML.slice(0, 80));
    }
    return { page: document.documentElement.scrollWidth, out };
  });
  assert.equal(overflow.page, 390);
  assert.deepEqual(overflow.out, []);
  const scroller = await page.$eval('.compare-lanes', (e) => [e.scrollWidth, e.clientWidth]);
  assert.ok(scroller[0] > scroller[1], 'the four lanes scroll sideways');
  await page.screenshot({ path: join(ARTIFACTS, 'compare-390.png'), fullPage: true });
  await page.close();
});

/// Serious or critical accessibility violations on the page as it is now.
async function audit(page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

test('accessibility: the full page and embed mode with a step open, light and dark, have no serious violations', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await ranPage({ width: 1440, height: 900 }, '?model=bundled', colorScheme);
    await page.click('[data-testid="lane-1"] [data-testid="token"] >> nth=1');
    await page.waitForSelector('[data-testid="compare"]');
    assert.deepEqual(await audit(page), [], `full page, ${colorScheme}`);
    await page.close();
  }
  const embed = await ranPage({ width: 1024, height: 768 }, '?embed=1&model=bundled');
  await embed.click('[data-testid="lane-0"] [data-testid="token"] >> nth=1');
  await embed.waitForSelector('[data-testid="compare"]');
  assert.deepEqual(await audit(embed), [], 'embed mode');
  await embed.close();
});
