// Fresh seeds: a sampling lane that names no seed (HF) or keeps llama.cpp's
// -1 draws a new seed from the browser's randomness each run, shows it,
// keeps it on a click, and a share link made from the run repeats the run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, modelReady, runAll, waitRunDone, laneTexts, openEditor } from './harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const drawn = (page, lane) => page.locator(`[data-testid="lane-${lane}"] [data-testid="drawn-seed"]`);
const seedOf = async (page, lane) => {
  const line = drawn(page, lane);
  return (await line.count()) ? Number(await line.getAttribute('data-seed')) : null;
};

async function setLaneJson(page, lane, json) {
  await openEditor(page, lane);
  const details = page.locator(`[data-testid="lane-${lane}"] details.json`);
  if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
  const box = `[data-testid="lane-json-${lane}"]`;
  await page.fill(box, JSON.stringify(json));
  await page.dispatchEvent(box, 'change');
}

test('an unseeded lane draws a new seed each run, shows it, a link repeats the run and Keep this seed makes it the lane\'s', async () => {
  const page = await env.open();
  await modelReady(page);
  await setLaneJson(page, 0, { do_sample: true, temperature: 1.5, max_new_tokens: 8 });
  await setLaneJson(page, 1, { semantics: 'llama.cpp', temperature: 1.5, n_predict: 8 });
  await setLaneJson(page, 2, { do_sample: true, temperature: 1.5, max_new_tokens: 8, seed: 4 });
  await setLaneJson(page, 3, { max_new_tokens: 8 });
  await runAll(page);
  const first = [await seedOf(page, 0), await seedOf(page, 1)];
  assert.ok(first.every((s) => Number.isInteger(s) && s >= 0 && s < 2 ** 32), JSON.stringify(first));
  assert.equal(await drawn(page, 2).count(), 0, 'a lane with its own seed draws none');
  assert.equal(await drawn(page, 3).count(), 0, 'a greedy lane draws none');
  assert.match(await drawn(page, 0).textContent(), new RegExp(`Seed ${first[0]}, drawn for this run`));
  await runAll(page);
  const second = [await seedOf(page, 0), await seedOf(page, 1)];
  assert.notDeepEqual(second, first, 'the next run draws again');
  const texts = await laneTexts(page);

  // A link made now holds the drawn seeds: it opens on this very run.
  await page.click('[data-testid="share"]');
  const link = await page.inputValue('[data-testid="share-link"]');
  const shared = await env.context.newPage();
  await shared.goto(link);
  await modelReady(shared);
  await waitRunDone(shared, 0);
  assert.deepEqual(await laneTexts(shared), texts);
  assert.equal(JSON.parse(await shared.inputValue('[data-testid="lane-json-0"]')).seed, second[0]);
  assert.equal(JSON.parse(await shared.inputValue('[data-testid="lane-json-1"]')).seed, second[1]);
  assert.equal(await drawn(shared, 0).count(), 0);
  await shared.close();

  // Keep this seed: lane 1's seed becomes its own and the next run repeats it.
  await page.click('[data-testid="lane-0"] [data-testid="keep-seed"]');
  assert.equal(JSON.parse(await page.inputValue('[data-testid="lane-json-0"]')).seed, second[0]);
  assert.equal(await page.locator('[data-testid="lane-0"] [data-testid="keep-seed"]').count(), 0);
  await runAll(page);
  assert.equal((await laneTexts(page))[0], texts[0]);
  assert.equal(await drawn(page, 0).count(), 0);
  assert.notEqual(await seedOf(page, 1), second[1], 'lane 2 still draws');
  assert.deepEqual(env.errors, []);
  await page.close();
});
