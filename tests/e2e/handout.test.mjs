// A lesson as a handout: Print asks for every step's recording, then opens
// the print dialog; on paper the handout stands alone — every step's prose,
// prompt, lanes with their recorded texts and first tables, the questions,
// and an answer key whose answers are the recordings' own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { start, ROOT, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await start({ isolated: false }); });
after(async () => { await env?.close(); });

const LESSON = 'lessons/walk-003-four-knobs.json';
const lesson = JSON.parse(readFileSync(join(ROOT, 'www', LESSON), 'utf8'));
const recording = (i) => JSON.parse(readFileSync(join(ROOT, 'www', 'lessons', lesson.steps[i].recording), 'utf8'));

test('Print the lesson as a handout: every step with its recorded texts, the questions and an answer key, alone on paper', async () => {
  const page = await env.open(`?lesson=${LESSON}`);
  await page.evaluate(() => { window.printed = 0; window.print = () => { window.printed += 1; }; });
  await page.waitForSelector('[data-testid="lesson-step"]');
  // Under the first step's question the lanes are hidden, and the handout can still be printed.
  await page.waitForSelector('[data-testid="question"]');
  const recordings = [];
  page.on('request', (r) => { if (r.url().includes('/lessons/recordings/')) recordings.push(r.url()); });
  await page.click('[data-testid="print-handout"]');
  await page.waitForFunction(() => window.printed === 1);
  assert.equal(new Set(recordings).size, lesson.steps.length, 'every step\'s recording was fetched');
  // On screen the handout is hidden; the page is as it was.
  assert.equal(await page.isVisible('[data-testid="handout"]'), false);
  assert.equal(await page.locator('[data-testid="lane-veiled"]').count(), 1);

  await page.emulateMedia({ media: 'print' });
  assert.ok(await page.isVisible('[data-testid="handout"]'));
  for (const hidden of ['.lanes', '[data-testid="prompt"]', '[data-testid="quiz"]', '.lesson-panel']) {
    assert.equal(await page.isVisible(hidden), false, `${hidden} is not printed`);
  }
  const steps = page.locator('[data-testid="handout-step"]');
  assert.equal(await steps.count(), lesson.steps.length);
  for (const [i, step] of lesson.steps.entries()) {
    const section = steps.nth(i);
    assert.match(await section.innerText(), new RegExp(`Step ${i + 1}: ${step.title}`));
    const texts = await section.locator('[data-testid="handout-lane"] td.text').allInnerTexts();
    const runs = recording(i).runs.map((r) => r.text.trim());
    assert.deepEqual(texts.map((t) => t.trim()), runs, `step ${i + 1}: the recorded texts, one per lane`);
    assert.equal(await section.locator('.handout-table').count(), runs.length, 'a first-token table per lane');
  }
  const asked = lesson.steps.flatMap((s) => s.questions ?? []);
  assert.equal(await page.locator('[data-testid="handout-question"]').count(), asked.length);
  const key = await page.locator('[data-testid="handout-answer"]').allInnerTexts();
  assert.equal(key.length, asked.length);
  // The first question asks for lane 1's first token: the key gives the recorded one.
  const first = recording(0).runs[0].steps[0].token;
  assert.ok(key[0].startsWith(`Step 1, question 1: “${first.replace(/ /g, '␣')}”`), key[0]);
  assert.match(key[0], /greedy/);
  // And Chromium lays it out as pages.
  const pdf = await page.pdf({ format: 'A4' });
  writeFileSync(join(ARTIFACTS, 'handout.pdf'), pdf);
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  assert.ok(pages >= 3, `${pages} pages`);
  assert.deepEqual(env.errors, []);
  await page.close();
});
