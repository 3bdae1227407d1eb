// Guess before you see: a lesson step's question hides what the lanes wrote
// until the student answers — with the keyboard alone — then reveals whether
// the guess was right, where the guessed token ranked in each lane and the
// teacher's explanation; the lesson's score is kept in the page and resets.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { start, modelReady, laneTexts, recordingShown, ROOT, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await start({ isolated: false }); });
after(async () => { await env?.close(); });

const LESSON = 'walk-003-four-knobs.json';
const lesson = JSON.parse(readFileSync(join(ROOT, 'www', 'lessons', LESSON), 'utf8'));
const recording = (step) => JSON.parse(readFileSync(join(ROOT, 'www', 'lessons', lesson.steps[step].recording), 'utf8'));
const text = (page, id) => page.textContent(`[data-testid="${id}"]`);

/// Serious or critical accessibility violations on the page as it is now.
async function audit(page) {
  const result = await new AxeBuilder({ page }).include('[data-testid="quiz"]').include('.lanes').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

test('a question hides the lanes, is answered by keyboard, and reveals rank, probabilities, explanation and score', async () => {
  const page = await env.open(`?lesson=lessons/${LESSON}`);
  await page.waitForSelector('[data-testid="question"]');
  await modelReady(page);
  await recordingShown(page);
  assert.match(await text(page, 'question-ask'), /Which token comes next in lane 1\?/);
  // Nothing of what the lane wrote is on screen: no text, no tables, no plots, no inspector.
  assert.equal(await page.locator('[data-testid="lane-veiled"]').count(), 1, 'the step\'s one lane');
  assert.deepEqual(await laneTexts(page), []);
  assert.equal(await page.locator('[data-testid="token"]').count(), 0);
  assert.equal(await page.locator('[data-testid="inspector"]').count(), 0);
  assert.equal(await page.locator('.overview').count(), 0);
  const first = recording(0).runs[0].steps[0];
  assert.equal(first.token, ' the');
  // The candidates: the lane's table, in an order that gives nothing away.
  const offered = await page.$$eval('[data-testid="question-choice"]', (els) => els.map((e) => e.parentElement.innerText));
  assert.equal(offered.length, 10);
  assert.ok(offered.includes('␣the') && offered.includes('␣is'));
  assert.notEqual(offered[0], '␣the', 'not in the table\'s order');
  assert.deepEqual(await audit(page), [], 'question state');
  await page.screenshot({ path: join(ARTIFACTS, 'quiz-question.png'), fullPage: false });

  // Keyboard only: Tab into the radio group, arrows to a candidate, Tab to the text box, type, Enter.
  await page.focus('[data-testid="question-typed"]');
  await page.keyboard.type('the');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid="reveal"]');
  const verdict = page.locator('[data-testid="reveal-verdict"]');
  assert.equal(await verdict.getAttribute('data-right'), 'true');
  assert.match(await verdict.innerText(), /You typed “the”, read as the token ␣the\. Lane 1 wrote ␣the\./);
  const row = await page.$eval('[data-testid="reveal-lane"]', (r) => [...r.cells].map((c) => c.innerText));
  assert.equal(row[2], '#1');
  assert.equal(row[3], `${(100 * first.top[0].prob).toFixed(1)}%`);
  assert.equal(row[4], `${(100 * first.top[0].raw_prob).toFixed(1)}%`);
  assert.match(await text(page, 'reveal-explanation'), /first row of the table/);
  // The lanes are back.
  assert.equal(await page.locator('[data-testid="lane-veiled"]').count(), 0);
  assert.match((await laneTexts(page))[0], /the/);
  const score = page.locator('[data-testid="quiz-score"]');
  assert.equal(await score.getAttribute('data-right'), '1');
  assert.match(await score.innerText(), /1 right of 1 answered \(3 questions/);
  assert.deepEqual(await audit(page), [], 'reveal state');
  await page.screenshot({ path: join(ARTIFACTS, 'quiz-revealed.png'), fullPage: false });

  // Step 6, a teacher's multiple choice: radio by arrow keys, the Answer button by Tab and Enter.
  for (let i = 0; i < 5; i++) await page.click('[data-testid="lesson-next"]');
  assert.match(await text(page, 'lesson-step'), /Step 6 of 8/);
  await page.waitForSelector('[data-testid="question"][data-state="open"]');
  assert.equal(await page.locator('[data-testid="lane-veiled"]').count(), 3, 'the step\'s three lanes');
  await page.focus('[data-testid="question-choice"] >> nth=0');
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.ok(await page.locator('[data-testid="question-choice"] >> nth=2').isChecked());
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid="reveal"]');
  assert.equal(await verdict.getAttribute('data-right'), 'false');
  assert.match(await verdict.innerText(), /You picked “They refuse to run”\. The answer is “They decode greedily/);
  assert.match(await score.innerText(), /1 right of 2 answered/);

  // Start again: every question asks again and the lanes hide again.
  await page.click('[data-testid="quiz-reset"]');
  assert.equal(await page.locator('[data-testid="question"][data-state="open"]').count(), 1);
  assert.equal(await page.locator('[data-testid="lane-veiled"]').count(), 3);
  assert.match(await score.innerText(), /0 right of 0 answered/);
  await page.close();
});

test('a typed guess with the model loaded goes through its tokenizer; a skipped question shows the answer and scores nothing', async () => {
  const page = await env.open(`?lesson=lessons/${LESSON}`);
  await modelReady(page);
  await recordingShown(page);
  // " were" is in the table; typed without its space, the tokenizer reads it after the prompt's word.
  await page.fill('[data-testid="question-typed"]', 'were');
  await page.press('[data-testid="question-typed"]', 'Enter');
  await page.waitForSelector('[data-testid="reveal"]');
  const verdict = page.locator('[data-testid="reveal-verdict"]');
  assert.equal(await verdict.getAttribute('data-right'), 'false');
  assert.match(await verdict.innerText(), /read as the token ␣were/);
  const row = await page.$eval('[data-testid="reveal-lane"]', (r) => [...r.cells].map((c) => c.innerText));
  const were = recording(0).runs[0].steps[0].top.findIndex((c) => c.token === ' were');
  assert.equal(row[2], `#${were + 1}`);

  // A word outside the table: the tokenizer's token ranks below it.
  await page.click('[data-testid="lesson-next"]');
  await page.click('[data-testid="lesson-prev"]');
  await page.click('[data-testid="quiz-reset"]');
  await recordingShown(page);
  await page.fill('[data-testid="question-typed"]', 'elephant');
  await page.press('[data-testid="question-typed"]', 'Enter');
  await page.waitForSelector('[data-testid="reveal"]');
  assert.match(await page.innerText('[data-testid="reveal-lane"]'), /below its top 10/);

  // Skipping: the answer shows, the score counts it answered and not right.
  for (let i = 0; i < 6; i++) await page.click('[data-testid="lesson-next"]');
  await page.click('[data-testid="question-skip"]');
  assert.match(await verdict.innerText(), /You looked without guessing\. The answer is lane 3\./);
  assert.equal(await page.getAttribute('[data-testid="quiz-score"]', 'data-right'), '0');
  assert.deepEqual(env.errors, []);
  await page.close();
});
