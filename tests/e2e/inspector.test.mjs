// The token inspector: the prompt as the model's tokens, before any run, and
// the model's predictions at every position — the last one being what every
// lane's first step starts from.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { start, modelReady, runAll, laneTexts, setKnob, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const chips = (page) => page.$$eval('[data-testid="prompt-token"]', (cs) => cs.map((c) => ({
  id: Number(c.dataset.tokenId),
  piece: c.querySelector('.piece').textContent,
  guesses: [...c.querySelectorAll('.guesses li')].map((g) => ({ id: g.dataset.tokenId, p: Number(g.dataset.prob) })),
  rank: c.querySelector('.actual')?.dataset.rank,
})));

test('the prompt shows as its tokens as soon as it is typed, with the model\'s guesses at every position', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  // "The best way to learn programming is": seven GPT-2 tokens, "The" = 464.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="prompt-token"]').length === 7);
  let cs = await chips(page);
  assert.equal(cs[0].id, 464);
  assert.deepEqual(cs.map((c) => c.piece), ['The', '␣best', '␣way', '␣to', '␣learn', '␣programming', '␣is']);
  assert.match(await page.textContent('[data-testid="prompt-token-count"]'), /7 tokens of 256 positions/);
  for (const c of cs.slice(0, -1)) assert.ok(Number(c.rank) >= 1, 'each position ranks the token that followed');
  assert.equal(cs[6].rank, undefined, 'after the last token, generation takes over');
  for (const c of cs) assert.equal(c.guesses.length, 5);
  // Typing changes the tokens, before any run.
  await page.fill('[data-testid="prompt"]', 'Hello, world!\nNext line');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="prompt-token"] .piece')].some((p) => p.textContent === '↵'));
  cs = await chips(page);
  assert.ok(cs.some((c) => c.piece === ','), JSON.stringify(cs.map((c) => c.piece)));
  assert.equal(await page.locator('[data-testid="lane-0"] [data-testid="token"]').count(), 0, 'no run was needed');
  await page.screenshot({ path: join(ARTIFACTS, 'inspector.png'), fullPage: true });
  assert.deepEqual(env.errors, []);
  await page.close();
});

test("the last position's guesses are greedy's first step, token for token", async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="prompt-token"]').length === 7);
  const last = (await chips(page))[6];
  await runAll(page);
  await page.click('[data-testid="grid-cell"][data-lane="0"][data-step="0"]');
  await page.waitForSelector('[data-testid="compare"][data-step="0"]');
  // Lane 1 is greedy: its table after the knobs is the model's raw row.
  const table = await page.$$eval('[data-testid="compare-lane"][data-lane="0"] [data-testid="compare-row"] [data-testid="candidate"]',
    (cs) => cs.map((c) => ({ id: c.closest('tr').dataset.tokenId, p: Number(c.dataset.prob) })));
  for (const [i, g] of last.guesses.entries()) {
    assert.equal(g.id, table[i].id, `guess ${i + 1}`);
    assert.ok(Math.abs(g.p - table[i].p) <= 1e-6, `guess ${i + 1}: ${g.p} vs ${table[i].p}`);
  }
  await page.close();
});

test('text → ids: a full stop is token 13, and one click makes it a lane\'s eos or stop string', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.fill('[data-testid="token-lookup"]', '.');
  await page.waitForFunction(() => document.querySelector('[data-testid="lookup-ids"]')?.textContent === '13');
  await page.click('[data-testid="lookup-eos"][data-lane="3"]');
  assert.match(await page.textContent('[data-testid="lane-3"] [data-testid="lane-summary"]'), /eos_token_id 13/);
  // Two tokens cannot be one eos, but they can be a stop string.
  await page.fill('[data-testid="token-lookup"]', ' the end');
  await page.waitForFunction(() => document.querySelector('[data-testid="lookup-ids"]')?.textContent.split(' ').length === 2);
  assert.equal(await page.locator('[data-testid="lookup-eos"]').count(), 0);
  await page.click('[data-testid="lookup-stop"][data-lane="0"]');
  assert.match(await page.textContent('[data-testid="lane-0"] [data-testid="lane-summary"]'), /stop_strings/);
  assert.equal(await page.locator('[data-testid="lane-0"] [data-testid="lane-error"]').count(), 0);
  // Or a bad word: the two ids become one sequence the lane never completes.
  const ids = (await page.textContent('[data-testid="lookup-ids"]')).split(' ').map(Number);
  await page.click('[data-testid="lookup-bad-words"][data-lane="1"]');
  assert.match(await page.textContent('[data-testid="lane-1"] [data-testid="lane-summary"]'), new RegExp(`bad_words_ids \\[\\[${ids[0]},${ids[1]}\\]\\]`));
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('text → ids: "must include" makes a sampling lane a constrained beam search whose text holds the words, and its beams say how many constraints they meet', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 10);
  await page.fill('[data-testid="token-lookup"]', ' the end');
  await page.waitForFunction(() => document.querySelector('[data-testid="lookup-ids"]')?.textContent.split(' ').length === 2);
  const ids = (await page.textContent('[data-testid="lookup-ids"]')).split(' ').map(Number);
  // Lane 2 samples by default: it becomes a beam search with the phrase forced.
  await page.click('[data-testid="lookup-force-words"][data-lane="1"]');
  const summary = await page.textContent('[data-testid="lane-1"] [data-testid="lane-summary"]');
  assert.match(summary, /constrained beam search/);
  assert.match(summary, new RegExp(`force_words_ids \\[\\[${ids[0]},${ids[1]}\\]\\]`));
  assert.doesNotMatch(summary, /do_sample/);
  assert.equal(await page.locator('[data-testid="lane-1"] [data-testid="lane-error"]').count(), 0);
  await runAll(page);
  const texts = await laneTexts(page);
  assert.match(texts[1], / the end/, `the forced phrase is in the text: ${texts[1]}`);
  await page.click('[data-testid="grid-cell"][data-lane="1"][data-step="0"]');
  const met = await page.$$eval('[data-testid="compare-lane"][data-lane="1"] [data-testid="constraints-met"]', (els) => els.map((e) => e.textContent));
  assert.ok(met.length > 0 && met.every((m) => /^[01] of 1$/.test(m)), JSON.stringify(met));
  assert.deepEqual(env.errors, []);
  await page.close();
});
