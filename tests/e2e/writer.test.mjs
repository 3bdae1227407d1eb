// Writing a lesson without a text editor: a teacher saves the page as lesson
// steps (prompt, lanes, a note, a question, the run on screen), reorders and
// previews them, downloads the file; the draft survives a reload; a class
// opens the file with ?lesson=, sees the recorded runs with no download,
// answers by keyboard and is scored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { start, modelReady, runAll, laneTexts, recordingShown, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await start({ isolated: false }); });
after(async () => { await env?.close(); });

const text = (page, id) => page.textContent(`[data-testid="${id}"]`);
const stepTitles = (page) => page.$$eval('[data-testid="writer-step-title-edit"]', (els) => els.map((e) => e.value));

async function audit(page) {
  const result = await new AxeBuilder({ page }).include('[data-testid="lesson-writer"]').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

test('a teacher writes a two-step lesson on the page, and a class opens the file, answers by keyboard and is scored', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);

  // Step 1: four lanes as they are, run, with a "which lane" question.
  await page.fill('[data-testid="prompt"]', 'The cat sat on the');
  await runAll(page);
  const firstTexts = await laneTexts(page);
  assert.equal(firstTexts.length, 4);
  assert.match(await text(page, 'writer-empty'), /No steps yet/);
  await page.fill('[data-testid="writer-step-title"]', 'Four ways to go on');
  await page.fill('[data-testid="writer-note"]', 'One lane never takes a **chance**.');
  await page.selectOption('[data-testid="writer-question-kind"]', 'which_lane');
  await page.fill('[data-testid="writer-question-ask"]', 'Which lane is greedy?');
  await page.selectOption('[data-testid="writer-question-lane"]', '1');
  await page.fill('[data-testid="writer-question-explanation"]', 'Lane 1 always takes the top row.');
  assert.deepEqual(await audit(page), [], 'the writer with a question drafted');
  await page.click('[data-testid="writer-save-step"]');
  assert.equal(await text(page, 'writer-status'), 'Saved as step 1 of 1.');
  assert.equal(await page.inputValue('[data-testid="writer-step-title"]'), '', 'the form empties');
  assert.match(await text(page, 'writer-step-what'), /“The cat sat on the” · 4 lanes · 1 question · run recorded/);
  assert.match(await text(page, 'writer-model'), /bundled/);

  // Step 2: three lanes and a new prompt. Not run yet: its run cannot be attached.
  await page.click('[data-testid="remove-lane"]');
  await page.fill('[data-testid="prompt"]', 'Once upon a time');
  await page.fill('[data-testid="writer-step-title"]', 'A story');
  await page.selectOption('[data-testid="writer-question-kind"]', 'choice');
  await page.fill('[data-testid="writer-question-ask"]', 'How many lanes write the same story?');
  await page.fill('[data-testid="writer-question-options"]', 'None\nTwo\nAll three');
  await page.fill('[data-testid="writer-question-answer"]', '2');
  await page.click('[data-testid="writer-save-step"]');
  assert.match(await text(page, 'writer-error'), /run on screen is not of this prompt and these lanes/);
  assert.equal(await page.locator('[data-testid="writer-step"]').count(), 1, 'nothing saved');
  await runAll(page);
  const secondTexts = await laneTexts(page);
  await page.click('[data-testid="writer-save-step"]');
  assert.equal(await page.locator('[data-testid="writer-error"]').count(), 0);
  assert.equal(await text(page, 'writer-status'), 'Saved as step 2 of 2.');

  // Reorder, and back; retitle the lesson.
  await page.click('[data-testid="writer-step-up"] >> nth=1');
  assert.deepEqual(await stepTitles(page), ['A story', 'Four ways to go on']);
  await page.click('[data-testid="writer-step-down"] >> nth=0');
  assert.deepEqual(await stepTitles(page), ['Four ways to go on', 'A story']);
  // No title: the download is refused by the field, nothing is saved.
  await page.click('[data-testid="writer-download"]');
  assert.match(await text(page, 'writer-error'), /at `title`: it is empty/);
  await page.fill('[data-testid="writer-title"]', 'Greedy or not');
  assert.deepEqual(await audit(page), [], 'the writer with two steps');
  await page.screenshot({ path: join(ARTIFACTS, 'lesson-writer.png'), fullPage: true });

  // The draft is kept in the browser.
  await page.reload();
  await page.waitForSelector('[data-testid="writer-step"]');
  assert.deepEqual(await stepTitles(page), ['Four ways to go on', 'A story']);
  assert.equal(await page.inputValue('[data-testid="writer-title"]'), 'Greedy or not');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-testid="writer-download"]'),
  ]);
  assert.equal(download.suggestedFilename(), 'greedy-or-not.json');
  const body = readFileSync(await download.path(), 'utf8');
  const written = JSON.parse(body);
  assert.equal(written.version, 1);
  assert.equal(written.title, 'Greedy or not');
  assert.equal(written.model, 'bundled');
  assert.equal(written.steps.length, 2);
  assert.equal(written.steps[0].prose, 'One lane never takes a **chance**.');
  assert.equal(written.steps[0].lanes.length, 4);
  assert.equal(written.steps[1].lanes.length, 3);
  assert.deepEqual(written.steps[1].questions, [{ kind: 'choice', ask: 'How many lanes write the same story?', options: ['None', 'Two', 'All three'], answer: 2 }]);
  assert.equal(written.steps[1].recording.prompt, 'Once upon a time');

  // Preview: the lesson player opens it as the class will see it.
  await page.click('[data-testid="writer-preview"]');
  assert.match(await text(page, 'lesson-title'), /Greedy or not/);
  assert.match(await text(page, 'lesson-step'), /Step 1 of 2: Four ways to go on/);
  await page.waitForSelector('[data-testid="question"][data-state="open"]');
  await page.close();

  // The class opens the file from the course site: recorded runs, no download needed.
  await env.context.route('**/course/greedy-or-not.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body }));
  const student = await env.open('?lesson=course/greedy-or-not.json');
  await student.waitForSelector('[data-testid="question"][data-state="open"]');
  assert.match(await text(student, 'question-ask'), /Which lane is greedy\?/);
  assert.match(await text(student, 'lesson-prose'), /One lane never takes a chance\./);
  await modelReady(student);
  await recordingShown(student);
  // Keyboard only: into the lanes' radio group, lane 1, Tab to Answer, Enter.
  await student.focus('[data-testid="question-choice"] >> nth=0');
  await student.keyboard.press('Space');
  await student.keyboard.press('Tab');
  await student.keyboard.press('Enter');
  await student.waitForSelector('[data-testid="reveal"]');
  assert.equal(await student.locator('[data-testid="reveal-verdict"]').getAttribute('data-right'), 'true');
  assert.match(await text(student, 'reveal-explanation'), /Lane 1 always takes the top row/);
  assert.deepEqual(await laneTexts(student), firstTexts, 'the teacher\'s run, recorded');
  assert.equal(await student.locator('[data-testid="quiz-score"]').getAttribute('data-right'), '1');

  await student.click('[data-testid="lesson-next"]');
  assert.match(await text(student, 'lesson-step'), /Step 2 of 2: A story/);
  await student.waitForSelector('[data-testid="question"][data-state="open"]');
  await student.focus('[data-testid="question-choice"] >> nth=0');
  await student.keyboard.press('Space');
  await student.keyboard.press('Tab');
  await student.keyboard.press('Enter');
  await student.waitForSelector('[data-testid="reveal"]');
  assert.equal(await student.locator('[data-testid="reveal-verdict"]').getAttribute('data-right'), 'false');
  assert.match(await text(student, 'quiz-score'), /1 right of 2 answered/);
  await recordingShown(student);
  assert.deepEqual(await laneTexts(student), secondTexts);
  assert.deepEqual(env.errors, []);
  await student.close();
});

test('Start a new lesson forgets the draft, here and after a reload', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  page.on('dialog', (d) => d.accept());
  // A draft from an earlier test in this browser goes first (it asks before it does).
  if (await page.locator('[data-testid="writer-step"]').count() > 0) await page.click('[data-testid="writer-clear"]');
  await page.fill('[data-testid="writer-title"]', 'Scratch');
  await page.click('[data-testid="writer-save-step"]');
  // Attach is on and nothing ran: refused; without the run it saves.
  assert.match(await text(page, 'writer-error'), /no finished run of these lanes/);
  await page.uncheck('[data-testid="writer-attach"]');
  await page.click('[data-testid="writer-save-step"]');
  assert.equal(await page.locator('[data-testid="writer-step"]').count(), 1);
  const asked = page.waitForEvent('dialog');
  await page.click('[data-testid="writer-clear"]');
  assert.match((await asked).message(), /Remove the lesson “Scratch” \(1 step\) from this browser\?/);
  assert.equal(await page.locator('[data-testid="writer-step"]').count(), 0);
  await page.reload();
  await page.waitForSelector('[data-testid="writer-empty"]');
  assert.equal(await page.inputValue('[data-testid="writer-title"]'), '');
  await page.close();
});
