// The what-if sandbox: one distribution held still (the lesson's typed
// logits), knobs moved over it, the numbers the lesson prints, and the
// knobs carried into a lane.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { start, modelReady, runAll, setKnob, openEditor, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const LESSON = [2, 1, 0.1, -1, -2];

/// softmax(z / t) over the first `kept` logits (the rest 0), in doubles.
function softmax(z, t = 1, kept = z.length) {
  const e = z.map((x, i) => (i < kept ? Math.exp(x / t) : 0));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

/// The sandbox's rows as { id, p }, in the order shown.
async function rows(page) {
  return page.$$eval('[data-testid="sandbox-row"]', (rs) => rs.map((r) => ({ id: Number(r.dataset.tokenId), p: Number(r.dataset.prob) })));
}

/// Waits until the rows say `expected[id]` for every id (within 1e-6).
async function expectProbs(page, expected, what) {
  let got = [];
  for (let i = 0; i < 50; i++) {
    got = await rows(page);
    if (got.length === expected.length && got.every((r) => Math.abs(r.p - expected[r.id]) <= 1e-6)) return got;
    await page.waitForTimeout(20);
  }
  assert.fail(`${what}: got ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
}

test("the lesson's five logits at three temperatures, top_k 3 and top_p 0.9 give the lesson's numbers", async () => {
  const page = await env.open('?model=bundled');
  await page.waitForSelector('[data-testid="sandbox"]');
  assert.equal(await page.inputValue('[data-testid="toy-logits"]'), '2, 1, 0.1, -1, -2');
  const first = await expectProbs(page, softmax(LESSON), 'every knob off');
  assert.deepEqual(first.map((r) => r.id), [0, 1, 2, 3, 4], 'highest first');
  for (const t of [0.5, 1, 2]) {
    await page.fill('[data-testid="sandbox-temperature"]', String(t));
    await expectProbs(page, softmax(LESSON, t), `temperature ${t}`);
  }
  await page.fill('[data-testid="sandbox-temperature"]', '');
  await page.fill('[data-testid="sandbox-top-k"]', '3');
  await expectProbs(page, softmax(LESSON, 1, 3), 'top_k 3');
  assert.equal(await page.locator('[data-testid="sandbox-row"].removed').count(), 2, 'the two it cut are struck through');
  assert.match(await page.textContent('[data-testid="sandbox-row"][data-token-id="4"]'), /top_k/);
  assert.equal(await page.getAttribute('[data-testid="sandbox-summary"]', 'data-kept'), '3');
  await page.fill('[data-testid="sandbox-top-k"]', '');
  await page.fill('[data-testid="sandbox-top-p"]', '0.9');
  await expectProbs(page, softmax(LESSON, 1, 3), 'top_p 0.9');
  await page.fill('[data-testid="sandbox-min-p"]', '0.2');
  await expectProbs(page, softmax(LESSON, 1, 2), 'top_p 0.9 then min_p 0.2');
  assert.match(await page.textContent('.sandbox .funnel'), /top_p.*min_p/s);
  assert.match(await page.textContent('[data-testid="sandbox-order"]'), /repetition_penalty → temperature → top_h → top_k → top_p → min_p → typical_p → epsilon_cutoff → eta_cutoff/);
  await page.screenshot({ path: join(ARTIFACTS, 'sandbox.png'), fullPage: true });
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('typed logits switch the distribution; a wrong value is named and the table stays', async () => {
  const page = await env.open('?model=bundled');
  await page.waitForSelector('[data-testid="sandbox"]');
  await page.fill('[data-testid="toy-logits"]', '1, 1, 1, 1');
  await expectProbs(page, [0.25, 0.25, 0.25, 0.25], 'four equal logits');
  await page.fill('[data-testid="sandbox-temperature"]', '0');
  await page.waitForSelector('[data-testid="sandbox-temperature"][aria-invalid="true"]');
  assert.match(await page.textContent('[data-testid="sandbox-error"]'), /temperature/);
  await expectProbs(page, [0.25, 0.25, 0.25, 0.25], 'the last good table stays');
  assert.ok(await page.locator('[data-testid="sandbox-use"]').first().isDisabled(), 'nothing to copy while wrong');
  await page.fill('[data-testid="sandbox-temperature"]', '');
  await page.fill('[data-testid="toy-logits"]', '3, oops');
  assert.match(await page.textContent('[data-testid="sandbox-error"]'), /number 2 \(`oops`\) is not a number/);
  await page.fill('[data-testid="toy-logits"]', '3, -inf');
  await expectProbs(page, [1, 0], '-inf is never picked');
  assert.equal(await page.textContent('[data-testid="sandbox-error"]'), '');
  await page.close();
});

test('the sandbox knobs go into a lane, which then samples with exactly them', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.fill('[data-testid="sandbox-temperature"]', '0.5');
  await page.fill('[data-testid="sandbox-top-p"]', '0.8');
  await page.click('[data-testid="sandbox-use"][data-lane="0"]');
  const summary = await page.textContent('[data-testid="lane-0"] [data-testid="lane-summary"]');
  assert.match(summary, /sample/);
  assert.match(summary, /temperature 0\.5/);
  assert.match(summary, /top_p 0\.8/);
  assert.match(summary, /top_k 0/);
  assert.equal(await page.locator('[data-testid="lane-0"] [data-testid="lane-error"]').count(), 0);
  await page.close();
});

/// A lane's column in the compare view as { id: p after the knobs }.
async function columnProbs(page, lane) {
  return page.$$eval(`[data-testid="compare-lane"][data-lane="${lane}"] [data-testid="compare-row"] [data-testid="candidate"]`,
    (cs) => Object.fromEntries(cs.map((c) => [c.closest('tr').dataset.tokenId, Number(c.dataset.prob)])));
}

test("a run's step held in the sandbox: the lane's own knobs give the lane's table, then the knobs move over the whole row", async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="run"]');
  await page.waitForFunction((prev) => { const d = document.querySelector('.page').dataset; return Number(d.run) > prev && d.running === 'false'; }, before, { timeout: 300_000 });
  // Lane 2 samples with temperature 0.7 and top_p 0.9 (and HF's top_k 50).
  await page.click('[data-testid="grid-cell"][data-lane="1"][data-step="3"]');
  await page.waitForSelector('[data-testid="compare"][data-step="3"]');
  const table = await columnProbs(page, 1);
  await page.click('[data-testid="compare-lane"][data-lane="1"] [data-testid="open-sandbox"]');
  await page.waitForSelector('[data-testid="sandbox-source"][data-lane="1"][data-step="3"]');
  assert.equal(await page.inputValue('[data-testid="sandbox-temperature"]'), '0.7');
  assert.equal(await page.inputValue('[data-testid="sandbox-top-k"]'), '50');
  assert.equal(await page.inputValue('[data-testid="sandbox-top-p"]'), '0.9');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="sandbox-row"]').length >= 20);
  const held = Object.fromEntries((await rows(page)).map((r) => [r.id, r.p]));
  const ids = Object.keys(table);
  assert.ok(ids.length >= 20);
  const both = ids.filter((id) => id in held);
  assert.ok(both.length >= 15, `the two tables share their top tokens: ${both.length}`);
  for (const id of both) assert.ok(Math.abs(held[id] - table[id]) <= 1e-6, `token ${id}: sandbox ${held[id]}, lane ${table[id]}`);
  const lanePick = await page.getAttribute('[data-testid="compare-lane"][data-lane="1"] [data-testid="compare-row"][data-chosen="true"]', 'data-token-id');
  assert.equal(await page.getAttribute('[data-testid="sandbox-row"].chosen', 'data-token-id'), lanePick, "the lane's pick is marked");
  assert.match(await page.textContent('[data-testid="sandbox-summary"]'), /of 50257 tokens kept/);
  // Hotter and no top_k: more tokens survive, the favourite's share falls.
  const kept = Number(await page.getAttribute('[data-testid="sandbox-summary"]', 'data-kept'));
  const top = (await rows(page))[0];
  await page.fill('[data-testid="sandbox-top-k"]', '');
  await page.fill('[data-testid="sandbox-temperature"]', '1.5');
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid="sandbox-summary"]').dataset.kept) > k, kept);
  await page.waitForFunction(([id, p]) => {
    const r = document.querySelector(`[data-testid="sandbox-row"][data-token-id="${id}"]`);
    return r && Number(r.dataset.prob) < p;
  }, [top.id, top.p]);
  await page.screenshot({ path: join(ARTIFACTS, 'sandbox-step.png'), fullPage: true });
  // Typed logits take over again.
  await page.fill('[data-testid="toy-logits"]', '2, 1');
  await page.waitForSelector('[data-testid="sandbox-source"]', { state: 'detached' });
  assert.equal((await rows(page)).length, 2);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test("a beam lane's step held in the sandbox: the traced beam's row, the knobs on log-probabilities, the lane's table to 1e-6", async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.selectOption('[data-testid="preset"]', { label: 'Beam search vs greedy' });
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 8);
  // A penalty: HF's beam search multiplies log-probabilities by it, where sampling divides positive logits.
  await setKnob(page, 1, 'repetition_penalty', 1.3);
  await runAll(page);
  for (const step of [0, 5]) {
    await page.click(`[data-testid="grid-cell"][data-lane="1"][data-step="${step}"]`);
    await page.waitForSelector(`[data-testid="compare"][data-step="${step}"]`);
    const table = await columnProbs(page, 1);
    await page.click('[data-testid="compare-lane"][data-lane="1"] [data-testid="open-sandbox"]');
    await page.waitForSelector(`[data-testid="sandbox-source"][data-lane="1"][data-step="${step}"]`);
    assert.match(await page.textContent('[data-testid="sandbox-source"]'), /beam search's row/);
    assert.equal(await page.inputValue('[data-testid="sandbox-repetition-penalty"]'), '1.3');
    assert.equal(await page.inputValue('[data-testid="sandbox-top-k"]'), '', 'beam search without do_sample has no warpers');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="sandbox-row"]').length >= 20);
    const held = Object.fromEntries((await rows(page)).map((r) => [r.id, r.p]));
    const both = Object.keys(table).filter((id) => id in held);
    assert.ok(both.length >= 15, `step ${step}: the two tables share their top tokens: ${both.length}`);
    for (const id of both) assert.ok(Math.abs(held[id] - table[id]) <= 1e-6, `step ${step} token ${id}: sandbox ${held[id]}, lane ${table[id]}`);
    const lanePick = await page.getAttribute('[data-testid="compare-lane"][data-lane="1"] [data-testid="compare-row"][data-chosen="true"]', 'data-token-id');
    assert.equal(await page.getAttribute('[data-testid="sandbox-row"].chosen', 'data-token-id'), lanePick, 'the best continuation is marked');
    await page.keyboard.press('Escape');
  }
  assert.deepEqual(env.errors, []);
  await page.close();
});

test("a beam-sampling lane's step held in the sandbox: its warpers leave what the lane's beams leave (eos ids + 1), so the tables agree", async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.selectOption('[data-testid="preset"]', { label: 'Beam search vs greedy' });
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 4);
  await openEditor(page, 1);
  await page.selectOption('[data-testid="lane-1"] [data-knob="mode"]', 'beam sampling');
  // top_k 1 alone would leave one token; HF's beams keep len(eos) + 1 = 2.
  await setKnob(page, 1, 'top_k', 1);
  await runAll(page);
  await page.click('[data-testid="grid-cell"][data-lane="1"][data-step="0"]');
  await page.waitForSelector('[data-testid="compare"][data-step="0"]');
  const table = await columnProbs(page, 1);
  const laneKept = Object.values(table).filter((p) => p > 0).length;
  assert.equal(laneKept, 2, `the lane kept ${laneKept}`);
  await page.click('[data-testid="compare-lane"][data-lane="1"] [data-testid="open-sandbox"]');
  await page.waitForSelector('[data-testid="sandbox-source"][data-lane="1"][data-step="0"]');
  assert.equal(await page.inputValue('[data-testid="sandbox-top-k"]'), '1');
  await page.waitForFunction(() => document.querySelector('[data-testid="sandbox-summary"]')?.dataset.kept === '2');
  assert.match(await page.textContent('[data-testid="sandbox-source"]'), /one token more than/);
  const held = Object.fromEntries((await rows(page)).map((r) => [r.id, r.p]));
  for (const [id, p] of Object.entries(table)) assert.ok(Math.abs(held[id] - p) <= 1e-6, `token ${id}: sandbox ${held[id]}, lane ${p}`);
  assert.deepEqual(env.errors, []);
  await page.close();
});
