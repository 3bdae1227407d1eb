// Tablets and phones: the page with touch emulation (Chromium device
// emulation, a coarse pointer and no hover) at an iPad's 768×1024 and a
// phone's 390×844. Every control a finger can hit is at least 44 px tall
// (buttons, menus and summaries 44 px wide too), nothing scrolls sideways,
// knob help opens by tap and by keyboard (a tablet has no hover), and the
// compare view, the lesson player and projector mode work by tap.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, modelReady, waitRunDone } from './harness.mjs';

const LESSON = 'lessons/walk-003-four-knobs.json';
const SIZES = [
  { name: 'tablet 768×1024', viewport: { width: 768, height: 1024 } },
  { name: 'phone 390×844', viewport: { width: 390, height: 844 } },
];
const envs = [];
after(async () => { for (const e of envs) await e.close(); });

/// Controls on screen smaller than a finger, and how far the page scrolls sideways.
async function fingerCheck(page) {
  return page.evaluate(() => {
    const small = [];
    for (const el of document.querySelectorAll('button, select, summary, input, textarea, .file-button')) {
      if (el.matches('input[type="checkbox"], input[type="radio"], input[type="file"], .sr-only')) continue;
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
      const wide = el.matches('button, select, summary, .file-button');
      if (r.height < 43.5 || (wide && r.width < 43.5)) {
        small.push(`${el.tagName.toLowerCase()}${el.dataset.testid ? '[' + el.dataset.testid + ']' : ''}${el.dataset.knob ? '[' + el.dataset.knob + ']' : ''} ${Math.round(r.width)}×${Math.round(r.height)}`);
      }
    }
    return { small, sideways: document.documentElement.scrollWidth - window.innerWidth };
  });
}

async function assertFingers(page, where) {
  const { small, sideways } = await fingerCheck(page);
  assert.deepEqual(small, [], `${where}: controls under 44 px`);
  assert.ok(sideways <= 1, `${where}: the page scrolls ${sideways} px sideways`);
}

for (const size of SIZES) {
  test(`${size.name}: knob help by tap and keyboard, 44 px targets, the compare view, the lesson player and projector mode by tap`, async () => {
    const env = await start({ device: { viewport: size.viewport, hasTouch: true, isMobile: true, deviceScaleFactor: 2 } });
    envs.push(env);
    const page = await env.open();
    await modelReady(page);
    assert.equal(await page.evaluate(() => matchMedia('(pointer: coarse)').matches && matchMedia('(hover: none)').matches), true, 'a touch device');
    await assertFingers(page, 'the page');

    // Knob help without hover: a tap shows it, another hides it; Enter and Escape do the same.
    await page.tap('[data-testid="lane-0"] [data-testid="lane-edit"]');
    const help = page.locator('[data-testid="lane-0"] .knob:has([data-knob="max_new_tokens"]) [data-testid="help"]');
    await help.tap();
    assert.equal(await help.getAttribute('aria-expanded'), 'true');
    const shown = page.locator('[data-testid="lane-0"] .knob:has([data-knob="max_new_tokens"]) [data-testid="help-text"]');
    assert.match(await shown.textContent(), /new tokens|tokens/i);
    await help.tap();
    assert.equal(await shown.count(), 0);
    await help.focus();
    await page.keyboard.press('Enter');
    assert.equal(await shown.count(), 1);
    await page.keyboard.press('Escape');
    assert.equal(await shown.count(), 0);
    await assertFingers(page, 'an open lane editor');

    // The score box grows with its text.
    const box = page.locator('[data-testid="score-text"]');
    const one = (await box.boundingBox()).height;
    await box.fill(' and the earth\nwas without form\nand void');
    const three = (await box.boundingBox()).height;
    assert.ok(three > one, `three lines: ${three} px tall, one line: ${one} px`);
    assert.ok(await box.evaluate((e) => e.scrollHeight <= e.clientHeight + 1), 'all three lines show without scrolling');
    await box.fill('');

    // A run, then a tapped step opens the compare view.
    for (let l = 0; l < 4; l++) {
      const input = page.locator(`[data-testid="lane-${l}"] [data-knob="max_new_tokens"]`);
      if (!(await input.isVisible())) await page.tap(`[data-testid="lane-${l}"] [data-testid="lane-edit"]`);
      await input.fill('6');
      await input.dispatchEvent('change');
    }
    const before = Number(await page.getAttribute('.page', 'data-run'));
    await page.tap('[data-testid="run"]');
    await waitRunDone(page, before);
    await page.tap('[data-testid="grid-cell"][data-lane="1"][data-step="2"]');
    await page.waitForSelector('[data-testid="compare"][data-step="2"]');
    await assertFingers(page, 'the compare view');
    await page.close();

    // The lesson player: steps by tap.
    const lesson = await env.open(`?lesson=${LESSON}`);
    await lesson.waitForSelector('[data-testid="lesson-player"]');
    await modelReady(lesson);
    await assertFingers(lesson, 'the lesson player');
    const first = await lesson.textContent('[data-testid="lesson-step"]');
    await lesson.tap('[data-testid="lesson-next"]');
    await lesson.waitForFunction((first) => document.querySelector('[data-testid="lesson-step"]').textContent !== first, first);
    assert.match(await lesson.textContent('[data-testid="lesson-step"]'), /2/);
    await lesson.close();

    // Projector mode on a tablet: large and still within the screen.
    const projector = await env.open(`?lesson=${LESSON}&present=1`);
    await projector.waitForSelector('[data-testid="lesson-player"]');
    await assertFingers(projector, 'projector mode');
    await projector.close();
    assert.deepEqual(env.errors, []);
  });
}
