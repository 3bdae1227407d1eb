// Putting a comparison into a lesson: divergence, branch, score a text,
// share links, embed mode, export and replay.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { deflateRawSync } from 'node:zlib';
import { start, modelReady, runAll, laneTexts, setKnob, waitRunDone, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const tokens = (page, lane) => page.$$eval(`[data-testid="lane-${lane}"] [data-testid="token"]`, (els) => els.map((e) => e.textContent));

test('the first step where lanes part ways is marked, with each lane\'s reason', async () => {
  const page = await env.open();
  await modelReady(page);
  await page.selectOption('[data-testid="preset"]', { label: 'Greedy = top-k 1' });
  await runAll(page);
  const note = page.locator('[data-testid="divergence"]');
  await note.waitFor();
  const step = Number(await note.getAttribute('data-step'));
  const text = await note.innerText();
  // Greedy and top_k=1 agree; top_k=2 sampling parts ways by a random draw.
  assert.match(text, new RegExp(`part ways at step ${step + 1}`));
  assert.match(await note.locator('li[data-lane="0"]').innerText(), /greedy takes the highest score/);
  assert.match(await note.locator('li[data-lane="1"]').innerText(), /`top_k` removed/);
  assert.match(await note.locator('li[data-lane="3"]').innerText(), /random draw picked/);
  const t0 = await tokens(page, 0), t1 = await tokens(page, 1), t3 = await tokens(page, 3);
  assert.deepEqual(t0.slice(0, step), t3.slice(0, step), 'identical before the marked step');
  assert.notEqual(t0[step], t3[step]);
  assert.deepEqual(t0, t1, 'greedy and top_k=1 never differ');
  assert.equal(await page.locator(`[data-testid="lane-3"] .tok.diverge[data-step="${step}"]`).count(), 1);
  // The reason line opens that step's table.
  await note.locator('li[data-lane="3"] button').click();
  assert.match(await page.textContent('[data-testid="step-table"] h3'), new RegExp(`Lane 4 · step ${step + 1}`));
  await page.close();
});

test('branching on a candidate continues every lane from there', async () => {
  const page = await env.open();
  await modelReady(page);
  await runAll(page);
  const prompt = await page.inputValue('[data-testid="prompt"]');
  const before = await tokens(page, 0);
  // Branch with greedy's own choice at step 4: greedy must then continue exactly as before.
  await page.click('[data-testid="lane-0"] [data-testid="token"] >> nth=3');
  let prev = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="step-table"] tr[data-chosen="true"] [data-testid="branch"]');
  await waitRunDone(page, prev);
  assert.match(await page.textContent('[data-testid="model-notice"]'), /Branched from lane 1 at step 4/);
  assert.equal(await page.inputValue('[data-testid="prompt"]'), prompt + before.slice(0, 4).join(''));
  const after = await tokens(page, 0);
  assert.deepEqual(after.slice(0, before.length - 4), before.slice(4));
  // Branch with a token greedy did not choose: every lane starts with it in its prompt.
  await page.click('[data-testid="lane-0"] [data-testid="token"] >> nth=0');
  const other = page.locator('[data-testid="step-table"] tr[data-chosen="false"]').first();
  const otherToken = (await other.locator('td.token').innerText()).replaceAll('␣', ' ');
  prev = Number(await page.getAttribute('.page', 'data-run'));
  await other.locator('[data-testid="branch"]').click();
  await waitRunDone(page, prev);
  assert.ok((await page.inputValue('[data-testid="prompt"]')).endsWith(otherToken), otherToken);
  assert.ok((await tokens(page, 0)).length > 0);
  await page.close();
});

test('scoring a text shows each lane\'s probabilities and strikes out what its knobs made impossible', async () => {
  const page = await env.open();
  await modelReady(page);
  await page.selectOption('[data-testid="preset"]', { label: 'Top-k vs top-p' });
  await page.fill('[data-testid="score-text"]', ' a zebra of quantum xylophones');
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="score"]');
  await waitRunDone(page, before);
  const stops = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => e.dataset.stop));
  assert.deepEqual(stops, ['forced_end', 'forced_end', 'forced_end', 'forced_end']);
  const texts = await laneTexts(page);
  for (const t of texts) assert.equal(t, ' a zebra of quantum xylophones');
  // top_k=5 cannot produce this text; greedy (lane 4) gives every token a probability.
  const imp0 = Number(await page.getAttribute('[data-testid="lane-0"] [data-testid="lane-score"]', 'data-impossible'));
  assert.ok(imp0 > 0, 'top_k=5 made some tokens impossible');
  assert.equal(await page.locator('[data-testid="lane-0"] .tok.impossible').count(), imp0);
  assert.match(await page.textContent('[data-testid="lane-0"] [data-testid="lane-score"]'), /impossible/);
  assert.match(await page.textContent('[data-testid="lane-3"] [data-testid="lane-score"]'), /perplexity/);
  await page.close();
});

test('a share link restores the prompt, lanes and model, and runs them to the same texts', async () => {
  const page = await env.open();
  await modelReady(page);
  await page.fill('[data-testid="prompt"]', 'In the beginning <b>bold</b>');
  await setKnob(page, 2, 'temperature', 1.2);
  await setKnob(page, 2, 'max_new_tokens', 12);
  await runAll(page);
  const texts = await laneTexts(page);
  await page.click('[data-testid="share"]');
  const link = await page.inputValue('[data-testid="share-link"]');
  assert.ok(link.startsWith(env.base) && link.includes('#run=1.'), link);
  assert.ok(!link.includes('?'), 'the state lives in the fragment');
  const shared = await env.open(link.slice(env.base.length));
  await waitRunDone(shared, 0, 240_000);
  assert.equal(await shared.inputValue('[data-testid="prompt"]'), 'In the beginning <b>bold</b>');
  assert.equal(await shared.inputValue('[data-testid="lane-2"] [data-knob="temperature"]'), '1.2');
  assert.match(await shared.textContent('[data-testid="model-status"]'), /bundled/i);
  assert.deepEqual(await laneTexts(shared), texts, 'same configs and seeds give the same four texts');
  await shared.close();
  await page.close();
});

const pack = (obj) => '1.' + deflateRawSync(Buffer.from(JSON.stringify(obj))).toString('base64url');

test('a damaged or hostile share link is refused with a reason and the page still works', async () => {
  for (const [hash, why] of [
    ['#run=1.%%%', /not base64url/],
    ['#run=7.abc', /another version/],
    ['#run=' + pack({ prompt: 'x', lanes: [{}], model: 'https://evil.example/m' }), /not the bundled model, a hub repo id \(owner\/name\) or a model folder/],
    ['#run=' + pack({ prompt: 'x', lanes: [{ temprature: 2 }] }), /did you mean `temperature`/],
  ]) {
    const page = await env.open('?model=bundled' + hash);
    assert.match(await page.textContent('[data-testid="error"]'), why);
    await modelReady(page);
    await setKnob(page, 0, 'max_new_tokens', 3);
    for (let l = 1; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 3);
    await runAll(page);
    assert.ok((await laneTexts(page))[0].length > 0);
    await page.close();
  }
  assert.deepEqual(env.errors, []);
});

test('a link naming another hub model asks before downloading anything', async () => {
  const hub = [];
  await env.context.route('https://huggingface.co/**', (route) => {
    hub.push(`${route.request().method()} ${route.request().url().split('/').pop()}`);
    route.abort();
  });
  const page = await env.open('#run=' + pack({ prompt: 'In the beginning', lanes: [{ max_new_tokens: 5 }], model: 'someone/gpt2-variant' }));
  await page.waitForSelector('[data-testid="model-status"][data-state="confirm"]');
  assert.match(await page.textContent('[data-testid="confirm-model"]'), /someone\/gpt2-variant/);
  // Its size is asked for (HEAD, its small config.json for the memory it
  // needs, and with no weights found the repo's file listing, in case it is a
  // repo of .gguf files); a hub that does not answer leaves it unknown.
  await page.waitForFunction(() => /did not say how large/.test(document.querySelector('[data-testid="download-size"]')?.textContent || ''));
  await new Promise((r) => setTimeout(r, 1500));
  assert.ok(hub.length > 0 && hub.every((r) => r.startsWith('HEAD ') || r === 'GET config.json' || r === 'GET main'), `only its size asked for before the click: ${hub}`);
  await page.click('[data-testid="confirm-bundled"]');
  await waitRunDone(page, 0);
  assert.equal(await page.inputValue('[data-testid="prompt"]'), 'In the beginning');
  assert.equal(await page.locator('[data-testid="lane-0"] [data-testid="token"]').count(), 5);
  await page.close();
  await env.context.unroute('https://huggingface.co/**');
});

test('embed mode: the copied iframe shows the lanes without editors, runs, and links to the full page', async () => {
  const page = await env.open();
  await modelReady(page);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 16);
  await page.click('[data-testid="embed"]');
  const code = await page.inputValue('[data-testid="embed-code"]');
  const src = code.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&');
  assert.ok(src.startsWith(env.base + '?embed=1#run=1.'), src);
  await page.close();
  // As a course page would have it: the snippet pasted into another page.
  const host = await env.context.newPage();
  await host.setContent(`<!doctype html><html><body style="margin:0"><h2>Lesson 3</h2>${code}</body></html>`);
  const frame = await (await host.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => {
    const s = [...document.querySelectorAll('[data-testid="lane-status"]')];
    return s.length === 4 && s.every((e) => e.dataset.stop);
  }, null, { timeout: 240_000 });
  assert.equal(await frame.locator('[data-testid="prompt"]').count(), 0, 'no prompt editor');
  assert.equal(await frame.locator('.config').count(), 0, 'no knob editors');
  assert.equal(await frame.locator('[data-testid="config-summary"]').count(), 4);
  assert.match(await frame.textContent('[data-testid="embed-prompt"]'), /The best way to learn programming is/);
  const full = await frame.getAttribute('[data-testid="open-full-page"]', 'href');
  assert.ok(full.startsWith(env.base + '#run=1.'), full);
  await host.screenshot({ path: join(ARTIFACTS, 'embed.png'), fullPage: true });
  await host.close();
});

/// RFC 4180: quoted fields may hold commas, quotes and newlines.
function parseCsv(text) {
  const rows = [];
  let row = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\n') { row.push(field); rows.push(row); row = []; field = ''; } else field += c;
  }
  if (field || row.length) { row.push(field); rows.push(row); }
  return rows;
}

async function download(page, testid) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${testid}"]`)]);
  const path = join(mkdtempSync(join(tmpdir(), 'ntl-dl-')), d.suggestedFilename());
  await d.saveAs(path);
  return { name: d.suggestedFilename(), text: readFileSync(path, 'utf8'), path };
}

test('a run exports as JSON, CSV, Markdown and a plot image, and the JSON replays without a model', async () => {
  const page = await env.open();
  await modelReady(page);
  await runAll(page);
  const texts = await laneTexts(page);
  const json = await download(page, 'export-json');
  const doc = JSON.parse(json.text);
  assert.equal(doc.runs.length, 4);
  assert.equal(doc.prompt, 'The best way to learn programming is');
  assert.equal(doc.runs[0].steps.length, 40);
  assert.ok(doc.runs[1].steps[0].top.length >= 5);
  const csv = await download(page, 'export-csv');
  const rows = parseCsv(csv.text);
  assert.deepEqual(rows[0].slice(0, 5), ['lane', 'mode', 'step', 'chosen_id', 'chosen_token']);
  assert.ok(rows.every((r) => r.length === rows[0].length), 'every row has every column');
  const steps = doc.runs.reduce((n, r) => n + r.steps.reduce((m, s) => m + s.top.length, 0), 0);
  assert.equal(rows.length - 1, steps, 'one CSV row per candidate of every step');
  const md = await download(page, 'export-markdown');
  assert.match(md.text, /^\*\*Prompt:\*\* The best way to learn programming is/);
  assert.match(md.text, /\| text \|/);
  const svg = await download(page, 'export-plots');
  assert.match(svg.name, /\.svg$/);
  assert.match(svg.text, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal((svg.text.match(/<polyline/g) || []).length, 16, '4 charts × 4 lanes');
  await page.close();

  // Replay on a page whose model can never load.
  // (The bundled model may sit in the browser's cache by now: ask for a hub model the network refuses.)
  const offline = await env.context.newPage();
  await offline.route('https://huggingface.co/**', (r) => r.abort());
  await offline.goto(env.base + '?model=nobody/unreachable');
  await offline.waitForSelector('[data-testid="model-status"][data-state="failed"]');
  await offline.setInputFiles('[data-testid="replay-file"]', json.path);
  await offline.waitForSelector('[data-testid="replay-notice"]');
  assert.equal(await offline.getAttribute('[data-testid="model-status"]', 'data-state') === 'ready', false);
  assert.deepEqual(await laneTexts(offline), texts);
  assert.equal(await offline.locator('[data-testid="plot"]').count(), 4);
  await offline.click('[data-testid="lane-1"] [data-testid="token"] >> nth=1');
  assert.ok(await offline.locator('[data-testid="step-table"] [data-testid="candidate"]').count() >= 5);
  assert.equal(await offline.locator('[data-testid="branch"]').count(), 0, 'no branching without a model');
  // Not a recorded run: a clear message, nothing replaced.
  const bad = join(mkdtempSync(join(tmpdir(), 'ntl-bad-')), 'notes.json');
  writeFileSync(bad, '{"hello": 1}');
  await offline.setInputFiles('[data-testid="replay-file"]', bad);
  assert.match(await offline.textContent('[data-testid="error"]'), /not a run exported by this page/);
  assert.deepEqual(await laneTexts(offline), texts);
  await offline.close();
});
