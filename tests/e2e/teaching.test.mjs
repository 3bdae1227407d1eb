// Lesson presets, "this knob does nothing" warnings, and text that is never HTML.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { start, modelReady, runAll, laneTexts, openEditor, setKnob, ROOT } from './harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

test('a lesson preset sets the prompt, all four lanes and its note, and runs', async () => {
  const page = await env.open();
  await modelReady(page);
  await page.selectOption('[data-testid="preset"]', { label: 'Repetition: penalty and stop' });
  assert.equal(await page.inputValue('[data-testid="prompt"]'), 'The history of computers is');
  assert.match(await page.inputValue('[data-testid="lane-json-3"]'), /"eos_token_id": 13/);
  assert.match(await page.inputValue('[data-testid="lane-json-1"]'), /"repetition_penalty": 1.3/);
  assert.match(await page.textContent('[data-testid="preset-notice"]'), /repetition penalty/);
  await runAll(page);
  const stops = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => e.dataset.stop));
  assert.ok(['eos', 'max_new_tokens'].includes(stops[3]), stops.join());
  if (stops[3] === 'eos') assert.match((await laneTexts(page))[3], /\.$/, 'eos "." ends the text');
  await page.close();
});

const verdicts = (page) => page.$$eval('[data-testid="lesson-line"]', (els) => els.map((e) => [e.dataset.lane, e.dataset.exact, e.dataset.verdict].join(':')));

test('a lesson preset shows what the lesson printed, and judges exact lanes only on distilgpt2 run unchanged', async () => {
  // The bundled model: the printed outputs are listed, not judged.
  const page = await env.open();
  await modelReady(page);
  assert.equal(await page.locator('[data-testid="lesson-printed"]').count(), 0, 'the first preset printed nothing');
  await page.selectOption('[data-testid="preset"]', { label: 'Temperature sweep' });
  for (let l = 0; l < 4; l++) {
    assert.match(await page.inputValue(`[data-testid="lane-json-${l}"]`), /"max_new_tokens": 12/, 'the lesson ran 12 new tokens');
  }
  assert.deepEqual(await verdicts(page), ['0:false:not-run', '1:false:not-run', '2:false:not-run', '3:true:not-run']);
  await page.click('[data-testid="lesson-printed"] summary');
  assert.match(await page.textContent('[data-testid="lesson-line"][data-lane="3"]'), /to learn from the experience of the programmer\.↵↵↵/);
  await runAll(page);
  assert.deepEqual(await verdicts(page), ['0:false:other-model', '1:false:other-model', '2:false:other-model', '3:true:other-model']);
  assert.match(await page.textContent('[data-testid="lesson-printed"] summary'), /another model: load distilgpt2 to compare/);
  await page.close();

  // "distilgpt2" from the hub (the bundled checkpoint behind its name, in a
  // profile of its own so the cache keeps nothing under that name): runs of
  // the preset unchanged are judged.
  const hub = await start();
  const files = join(ROOT, 'dist', 'models', 'kjv-gpt2');
  await hub.context.route('https://huggingface.co/**', (route) => {
    const m = route.request().url().match(/^https:\/\/huggingface\.co\/distilbert\/distilgpt2\/resolve\/main\/([a-z_.]+)$/);
    const file = m && join(files, m[1]);
    if (!file || !existsSync(file)) return route.fulfill({ status: 404, headers: { 'access-control-allow-origin': '*' }, body: 'not found' });
    return route.fulfill({ status: 200, headers: { 'access-control-allow-origin': '*', 'content-type': 'application/octet-stream' }, body: readFileSync(file) });
  });
  const p2 = await hub.open('');
  await modelReady(p2);
  assert.match(await p2.textContent('[data-testid="model-status"]'), /distilgpt2/);
  await p2.selectOption('[data-testid="preset"]', { label: 'Seeds at low temperature' });
  await runAll(p2);
  const after = await verdicts(p2);
  assert.deepEqual(after.map((v) => v.split(':').slice(0, 2).join(':')), ['0:false', '1:false', '2:false', '3:true']);
  // Not the lesson's model underneath, so the greedy lane parts from the lesson's text, and says where.
  assert.equal(after[3], '3:true:differs');
  assert.ok(after.slice(0, 3).every((v) => /:(same|differs)$/.test(v)), after.join());
  await p2.click('[data-testid="lesson-printed"] summary');
  const line = await p2.textContent('[data-testid="lesson-line"][data-lane="3"]');
  const greedy = (await laneTexts(p2))[3];
  const at = Number(line.match(/parts at character (\d+)/)[1]);
  const lesson = ' to learn from the experience of the programmer.\n\n\n';
  assert.equal(greedy.slice(0, at - 1), lesson.slice(0, at - 1), 'the texts agree before that character');
  assert.notEqual(greedy[at - 1], lesson[at - 1]);
  assert.match(await p2.textContent('[data-testid="lesson-printed"] summary'), /0 of 1 exact lanes match/);
  // An edited knob: the run on screen is no longer the lesson's.
  await setKnob(p2, 3, 'max_new_tokens', 13);
  await runAll(p2);
  assert.ok((await verdicts(p2)).every((v) => v.endsWith(':not-run')));
  await p2.close();
  await hub.close();
  assert.deepEqual(hub.errors, []);
});

test('knobs that do nothing are flagged: temperature under greedy, the silent top_k=50', async () => {
  const page = await env.open();
  await modelReady(page);
  await openEditor(page, 0);
  await page.click('[data-testid="lane-0"] details.json summary');
  await page.fill('[data-testid="lane-json-0"]', '{"temperature": 0.7, "max_new_tokens": 5}');
  await page.dispatchEvent('[data-testid="lane-json-0"]', 'change');
  const w0 = await page.textContent('[data-testid="lane-0"] [data-testid="lane-warnings"]');
  assert.match(w0, /`temperature` does nothing/);
  const w1 = await page.textContent('[data-testid="lane-1"] [data-testid="lane-warnings"]');
  assert.match(w1, /top_k=50/);
  assert.equal(await page.locator('[data-testid="lane-3"] [data-testid="lane-warnings"]').count(), 0);
  await page.close();
});

test('the do_sample pitfall: temperature and top_p without do_sample decode greedily, and say so', async () => {
  const page = await env.open();
  await modelReady(page);
  await page.selectOption('[data-testid="preset"]', { label: 'The do_sample pitfall' });
  const w0 = await page.textContent('[data-testid="lane-0"] [data-testid="lane-warnings"]');
  assert.match(w0, /`temperature` does nothing/);
  assert.match(w0, /`top_p` does nothing/);
  await runAll(page);
  const texts = await laneTexts(page);
  assert.equal(texts[0], texts[2], 'lane 1 is greedy whatever its temperature says');
  assert.notEqual(texts[1], texts[0], 'with do_sample the same knobs sample');
  await page.close();
});

test('the context window: HF stops when the positions are full, and max_length counts the prompt', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.selectOption('[data-testid="preset"]', { label: 'The context window' });
  await runAll(page);
  const stops = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => e.dataset.stop));
  assert.deepEqual(stops, ['context_full', 'context_full', 'max_new_tokens', 'max_new_tokens']);
  const counts = await page.$$eval('[data-testid="lane-text"]', (ts) => ts.map((t) => t.querySelectorAll('[data-testid="token"]').length));
  const prompt = await page.locator('[data-testid="prompt-token"]').count();
  assert.equal(prompt, 7);
  assert.deepEqual(counts, [256 - prompt, 256 - prompt, 64 - prompt, 64]);
  await page.close();
});

test('prompts and generated text are shown as text, never run as HTML', async () => {
  const page = await env.open();
  await modelReady(page);
  const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
  await page.fill('[data-testid="prompt"]', hostile);
  await openEditor(page, 0);
  await page.click('[data-testid="lane-0"] details.json summary');
  await page.fill('[data-testid="lane-json-0"]', JSON.stringify({ max_new_tokens: 8, stop_strings: ['<b onmouseover=alert(1)>'] }));
  await page.dispatchEvent('[data-testid="lane-json-0"]', 'change');
  await runAll(page);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('.lanes img, .lanes script, .lanes b').count(), 0);
  assert.equal(await page.inputValue('[data-testid="prompt"]'), hostile, 'the prompt is kept as typed');
  assert.match(await page.inputValue('[data-testid="lane-json-0"]'), /<b onmouseover/);
  await page.close();
});

test('the per-step plots show all four lanes and hovering or clicking a point opens its step', async () => {
  const page = await env.open();
  await modelReady(page);
  await runAll(page);
  assert.equal(await page.locator('[data-testid="plot"]').count(), 4);
  for (let i = 0; i < 4; i++) {
    assert.equal(await page.locator(`[data-testid="plot"] >> nth=${i} >> g.series`).count(), 4, `plot ${i} has four lanes`);
  }
  // Points of other lanes may overlap this one; dispatch the click on it directly.
  await page.locator('[data-testid="plot"] >> nth=0 >> g.series[data-lane="2"] circle >> nth=3').dispatchEvent('click');
  const title = await page.textContent('[data-testid="step-table"] h3');
  assert.match(title, /Lane 3 · step 4/);
  // Hovering a point shows its step too.
  await page.locator('[data-testid="plot"] >> nth=1 >> g.series[data-lane="1"] circle >> nth=5').dispatchEvent('mouseenter');
  assert.match(await page.textContent('[data-testid="step-table"] h3'), /Lane 2 · step 6/);
  await page.screenshot({ path: new URL('./artifacts/plots.png', import.meta.url).pathname, fullPage: true });
  await page.close();
});

test('shared randomness makes same-distribution lanes identical; re-roll changes the seeds and the text', async () => {
  const page = await env.open();
  await modelReady(page);
  await page.selectOption('[data-testid="preset"]', { label: 'Temperature sweep' });
  // Three sampling lanes with the same knobs but different seeds.
  for (const lane of [0, 1, 2]) {
    await openEditor(page, lane);
    await page.click(`[data-testid="lane-${lane}"] details.json summary`);
    await page.fill(`[data-testid="lane-json-${lane}"]`, JSON.stringify({ do_sample: true, top_k: 0, max_new_tokens: 15, seed: lane }));
    await page.dispatchEvent(`[data-testid="lane-json-${lane}"]`, 'change');
  }
  await page.check('[data-testid="shared-randomness"]');
  await runAll(page);
  const shared = await laneTexts(page);
  assert.equal(shared[0], shared[1]);
  assert.equal(shared[1], shared[2]);
  await page.uncheck('[data-testid="shared-randomness"]');
  await runAll(page);
  const own = await laneTexts(page);
  assert.ok(own[0] !== own[1] || own[1] !== own[2], 'own seeds differ');
  const before = await page.inputValue('[data-testid="lane-json-0"]');
  const runBefore = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="reroll"]');
  await page.waitForFunction((prev) => Number(document.querySelector('.page').dataset.run) > prev && document.querySelector('.page').dataset.running === 'false', runBefore);
  assert.match(before, /"seed": 0/);
  assert.match(await page.inputValue('[data-testid="lane-json-0"]'), /"seed": 1/);
  await page.close();
});

test('after a run, idle knobs are reported: top_p behind top_k, a penalty that changed nothing', async () => {
  const page = await env.open();
  await modelReady(page);
  const set = async (lane, cfg) => {
    await openEditor(page, lane);
    await page.click(`[data-testid="lane-${lane}"] details.json summary`);
    await page.fill(`[data-testid="lane-json-${lane}"]`, JSON.stringify(cfg));
    await page.dispatchEvent(`[data-testid="lane-json-${lane}"]`, 'change');
  };
  await set(0, { repetition_penalty: 1.0001, max_new_tokens: 6 });
  // One candidate left by top_k: top_p cannot remove anything from it.
  await set(1, { do_sample: true, top_k: 1, top_p: 0.5, max_new_tokens: 6, seed: 0 });
  await runAll(page);
  assert.match(await page.textContent('[data-testid="lane-0"] [data-testid="run-warnings"]'), /`repetition_penalty` changed no choice/);
  assert.match(await page.textContent('[data-testid="lane-1"] [data-testid="run-warnings"]'), /`top_p` removed nothing in this run — `top_k` had already cut more/);
  await page.close();
});

test('token rules: a suppressed token is struck through by its knob, and an HF knob the lab does not apply is refused by name', async () => {
  const page = await env.open();
  await modelReady(page);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 6);
  await runAll(page);
  await page.click('[data-testid="grid-cell"][data-lane="0"][data-step="0"]');
  const first = await page.getAttribute('[data-testid="compare-lane"][data-lane="0"] [data-testid="compare-row"][data-chosen="true"]', 'data-token-id');
  // The token rules sit folded under each lane's knobs.
  await page.click('[data-testid="token-knobs-0"] summary');
  const box = page.locator('[data-testid="lane-0"] [data-knob="suppress_tokens"]');
  await box.fill(`[${first}]`);
  await box.dispatchEvent('change');
  assert.match(await page.inputValue('[data-testid="lane-json-0"]'), new RegExp(`"suppress_tokens": \\[\\s*${first}\\s*\\]`));
  await runAll(page);
  await page.click('[data-testid="grid-cell"][data-lane="0"][data-step="0"]');
  const row = page.locator(`[data-testid="compare-lane"][data-lane="0"] [data-testid="compare-row"][data-token-id="${first}"]`);
  assert.equal(await row.getAttribute('data-chosen'), 'false', 'the suppressed token is not chosen');
  assert.match(await row.getAttribute('class'), /removed/);
  assert.match(await row.textContent(), /suppress_tokens/);
  // A knob HF applies and this lab does not: refused, never dropped.
  await page.click('[data-testid="lane-1"] details.json summary');
  await page.fill('[data-testid="lane-json-1"]', '{"prompt_lookup_num_tokens": 3, "max_new_tokens": 6}');
  await page.dispatchEvent('[data-testid="lane-json-1"]', 'change');
  assert.match(await page.textContent('[data-testid="lane-1"] [data-testid="lane-error"]'), /`prompt_lookup_num_tokens` is a knob of HF generate\(\) that this lab does not apply/);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('diverse beam search: the mode menu sets up groups, and a step lists each group\'s continuations with the diversity penalty paid', async () => {
  const page = await env.open();
  await modelReady(page);
  await openEditor(page, 1);
  await page.selectOption('[data-testid="lane-1"] select[data-knob="mode"]', { label: 'diverse beam search' });
  const json = JSON.parse(await page.inputValue('[data-testid="lane-json-1"]'));
  assert.equal(json.num_beams, 4);
  assert.equal(json.num_beam_groups, 2);
  assert.equal(json.diversity_penalty, 1.0);
  // The editor shows knobs under HF's groups.
  assert.equal(await page.locator('[data-testid="lane-1"] .knob-group[data-group="strategy"] [data-knob="num_beam_groups"]').count(), 1);
  assert.equal(await page.locator('[data-testid="lane-1"] .knob-group[data-group="length"] [data-knob="max_new_tokens"]').count(), 1);
  // A small penalty keeps group 0's picks among group 1's candidates at step 0.
  await setKnob(page, 1, 'diversity_penalty', 0.1);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 6);
  await runAll(page);
  await page.click('[data-testid="grid-cell"][data-lane="1"][data-step="0"]');
  const lane = '[data-testid="compare-lane"][data-lane="1"]';
  const rows = await page.$$eval(`${lane} [data-testid="beam-candidate"]`, (els) => els.map((e) => ({
    group: e.dataset.group, penalty: e.querySelector('[data-testid="diversity-penalty"]').textContent, text: e.textContent,
  })));
  assert.deepEqual([...new Set(rows.map((r) => r.group))], ['0', '1'], 'both groups listed, in order');
  assert.ok(rows.filter((r) => r.group === '0').every((r) => r.penalty === ''), 'the first group pays nothing');
  assert.ok(rows.some((r) => r.group === '1' && /−0\.1/.test(r.penalty)), `group 1 pays for group 0's picks: ${JSON.stringify(rows)}`);
  assert.match(await page.textContent(`${lane} table.beams thead`), /diversity penalty/);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('DoLa: a greedy lane with dola_layers says at each step which layer it contrasted with, and warns without a repetition penalty', async () => {
  const page = await env.open();
  await modelReady(page);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 6);
  await setKnob(page, 0, 'dola_layers', '[0, 2]');
  await runAll(page);
  assert.match(await page.textContent('[data-testid="lane-0"] [data-testid="config-warnings"], [data-testid="lane-0"]'), /HF recommends `repetition_penalty` ≥ 1.2/);
  await setKnob(page, 0, 'repetition_penalty', 1.2);
  await runAll(page);
  await page.click('[data-testid="grid-cell"][data-lane="0"][data-step="1"]');
  const line = page.locator('[data-testid="compare-lane"][data-lane="0"] [data-testid="dola-step"]');
  assert.ok(['0', '2'].includes(await line.getAttribute('data-layer')), 'one of the candidates');
  assert.match(await line.textContent(), /Jensen–Shannon divergence \(layer 0: .* · layer 2: .*\)/);
  assert.ok(Number(await line.getAttribute('data-plausible')) >= 1);
  // A plain lane has no DoLa line.
  assert.equal(await page.locator('[data-testid="compare-lane"][data-lane="1"] [data-testid="dola-step"]').count(), 0);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('the watermark preset: marked lanes read mostly green with a high z, unmarked ones do not, and a scored text is checked too', async () => {
  const page = await env.open();
  await modelReady(page);
  await page.selectOption('[data-testid="preset"]', { label: 'Watermark: one more knob' });
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 24);
  await runAll(page);
  const checks = await page.$$eval('[data-testid="watermark"]', (els) => els.map((e) => ({ z: Number(e.dataset.z), green: Number(e.dataset.green), scored: Number(e.dataset.scored), marked: e.dataset.prediction === 'true', text: e.textContent })));
  assert.equal(checks.length, 4, 'every lane is checked with lane 2\'s key');
  assert.match(checks[0].text, /lane 2's key/);
  assert.match(checks[1].text, /this lane's key/);
  assert.ok(checks[1].marked && checks[2].marked, `marked lanes: ${checks.map((c) => c.z.toFixed(2))}`);
  assert.ok(!checks[0].marked && !checks[3].marked, `unmarked lanes: ${checks.map((c) => c.z.toFixed(2))}`);
  for (const c of checks) assert.equal(c.scored, 24);
  // The tint: each token of a checked lane is green or red.
  const greenTokens = await page.locator('[data-testid="lane-1"] [data-testid="token"][data-green="true"]').count();
  assert.equal(greenTokens, checks[1].green);
  // A text of one's own, scored in every lane, is checked with the same key.
  await page.fill('[data-testid="score-text"]', ' to practice every day and read other people\'s code');
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="score"]');
  await page.waitForFunction((prev) => { const d = document.querySelector('.page').dataset; return Number(d.run) > prev && d.running === 'false'; }, before);
  const scored = await page.$$eval('[data-testid="watermark"]', (els) => els.map((e) => e.dataset.prediction));
  assert.deepEqual(scored, ['false', 'false', 'false', 'false'], 'a human text carries no watermark');
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('guidance: a guidance_scale lane brings up the negative prompt box, and the negative prompt changes what it writes', async () => {
  const page = await env.open();
  await modelReady(page);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 10);
  assert.equal(await page.locator('[data-testid="negative-prompt"]').count(), 0, 'no guided lane, no box');
  await page.click('[data-testid="token-knobs-0"] summary');
  const box = page.locator('[data-testid="lane-0"] [data-knob="guidance_scale"]');
  await box.fill('3');
  await box.dispatchEvent('change');
  await page.waitForSelector('[data-testid="negative-prompt"]');
  await runAll(page);
  const plain = (await laneTexts(page))[0];
  await page.click('[data-testid="grid-cell"][data-lane="0"][data-step="0"]');
  assert.match(await page.textContent('[data-testid="compare-lane"][data-lane="0"] .funnel'), /guidance_scale/);
  await page.fill('[data-testid="negative-prompt"]', 'And the LORD said unto Moses');
  await runAll(page);
  const steered = (await laneTexts(page))[0];
  assert.notEqual(steered, plain, 'a different unconditional pass, a different text');
  // The sandbox cannot run the unconditional pass, and says so.
  await page.click('[data-testid="grid-cell"][data-lane="0"][data-step="1"]');
  await page.click('[data-testid="compare-lane"][data-lane="0"] [data-testid="open-sandbox"]');
  await page.waitForSelector('[data-testid="sandbox-guided"]');
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('a sampling lane with num_return_sequences 3 lists its three samples, the first being the lane text', async () => {
  const page = await env.open();
  await modelReady(page);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 8);
  await setKnob(page, 1, 'num_return_sequences', 3);
  await runAll(page);
  const items = await page.$$eval('[data-testid="lane-1"] [data-testid="sequence"]', (els) => els.map((e) => e.textContent));
  assert.equal(items.length, 3);
  items.forEach((t, k) => assert.match(t, new RegExp(`^sample ${k + 1} · log p -?\\d+\\.\\d\\d under its knobs · `)));
  const text = (await laneTexts(page))[1];
  assert.equal(items[0].split(' under its knobs · ')[1].replaceAll('\n', ''), text.replaceAll('↵', '').replaceAll('\n', ''));
  assert.deepEqual(env.errors, []);
  await page.close();
});
