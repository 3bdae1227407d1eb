// The page in Firefox (Debian's firefox-esr over WebDriver BiDi): what a
// student arriving in Firefox does — load the bundled model, run the four
// lanes, open a step, stop mid-run, share, embed, export — on a plain host
// (single-threaded worker, as every embed gets) and a cross-origin isolated
// one (threaded worker), and the engine's documents equal Chromium's to the bit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFirefox, modelReady, runAll, waitRunDone, laneTexts, setKnob, download } from './firefox_harness.mjs';
import { driveWorker } from './worker_client.mjs';
import { startHub, CDN } from './hub_server.mjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, recordWorkers } from './harness.mjs';
import { REQUESTS, TREES, chromiumReference } from './worker_requests.mjs';
import { englishChrome } from './chrome_words.mjs';
import { coarseKl } from './kl_bound.mjs';
import { inflateSync, deflateRawSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';

let ff;
before(async () => { ff = await startFirefox(); });
after(async () => { await ff?.close(); });

async function firefoxDocuments(base, loader) {
  const page = await ff.open(base);
  await modelReady(page);
  const out = await page.evaluate(driveWorker, { loader, modelBase: 'models/kjv-gpt2', requests: REQUESTS, trees: TREES });
  await page.close();
  return out;
}

test('Firefox: both worker builds give exactly Chromium\'s documents — seeded ids, probabilities, every step', async () => {
  const reference = await chromiumReference();
  const single = await firefoxDocuments(ff.plain, './worker_loader.js');
  const threaded = await firefoxDocuments(ff.isolated, './worker_mt_loader.js');
  assert.equal(single.loaded.threads, 1);
  assert.ok(threaded.loaded.threads >= 2, `Firefox's threaded worker runs ${threaded.loaded.threads} threads (shared memory and Atomics.wait in workers)`);
  for (const [name, got] of [['single-threaded', single], ['threaded', threaded]]) {
    assert.equal(got.finished.length, REQUESTS.length);
    for (const [i, done] of got.finished.entries()) {
      assert.deepEqual(done.document, reference.finished[i].document, `Firefox ${name}, request ${i}`);
    }
    for (const [i, g] of got.grown.entries()) {
      assert.deepEqual(g.document, reference.grown[i].document, `Firefox ${name}, tree ${i}`);
    }
    assert.equal(got.grown.length, TREES.length);
  }
  // The seeded sampling lane drew real tokens, not a degenerate repeat.
  const sampled = single.finished[0].document.runs[1].token_ids;
  assert.ok(new Set(sampled).size > 3, JSON.stringify(sampled));
});

for (const [host, threads] of [['plain', '1 thread — single-threaded worker: this page is not cross-origin isolated'], ['isolated', null]]) {
  test(`Firefox on ${host === 'plain' ? 'a plain' : 'an isolated'} host: four lanes run, a step's table opens, Stop ends a run and Run works again`, async () => {
    const page = await ff.open(ff[host]);
    await modelReady(page);
    assert.match(await page.$eval('[data-testid="model-status"]', (e) => e.textContent), /bundled/i);
    const shown = await page.$eval('[data-testid="threads"]', (e) => e.textContent);
    if (threads) assert.equal(shown, threads);
    else assert.match(shown, /^[2-4] threads$/, 'an isolated page gets the threaded worker in Firefox too');
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), host === 'isolated');

    for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 12);
    await runAll(page);
    const texts = await laneTexts(page);
    assert.equal(texts.length, 4);
    assert.ok(texts.every((t) => t.length > 0), JSON.stringify(texts));
    assert.equal(await page.$eval('[data-testid="lane-0"] [data-testid="lane-status"]', (e) => e.dataset.stop), 'max_new_tokens');

    // A sampled token's table: candidates, one chosen, probabilities ≤ 1, the funnel names the knobs.
    const tokens = await page.$$('[data-testid="lane-1"] [data-testid="token"]');
    await tokens[2].click();
    await page.waitForSelector('[data-testid="step-table"]');
    const probs = await page.$$eval('[data-testid="step-table"] [data-testid="candidate"]', (rows) => rows.map((r) => Number(r.dataset.prob)));
    assert.ok(probs.length >= 5, `${probs.length} candidates`);
    assert.ok(probs.reduce((a, b) => a + b, 0) <= 1 + 1e-5);
    assert.equal((await page.$$('[data-testid="step-table"] tr[data-chosen="true"]')).length, 1);
    assert.match(await page.$eval('[data-testid="step-table"] .funnel', (e) => e.textContent), /top_p/);

    // Stop mid-run.
    for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 200);
    // Stop as soon as it can be pressed (a loaded machine can draw a third
    // token after the worker wrote all 200).
    await page.click('[data-testid="run"]');
    await page.waitForSelector('[data-testid="stop"]:not([disabled])', { timeout: 60_000 });
    await page.click('[data-testid="stop"]');
    await page.waitForFunction(() => document.querySelector('.page').dataset.running === 'false'
      && [...document.querySelectorAll('[data-testid="lane-status"]')].every((e) => e.dataset.stop), { timeout: 60_000 });
    const stops = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => e.dataset.stop));
    assert.deepEqual(stops, ['cancelled', 'cancelled', 'cancelled', 'cancelled']);
    assert.ok((await page.$$('[data-testid="lane-0"] [data-testid="token"]')).length < 200);
    for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 12);
    await runAll(page);
    assert.deepEqual(await laneTexts(page), texts, 'the same run again gives the same four texts');
    assert.deepEqual(ff.errors, []);
    await page.close();
  });
}

// Firefox ESR's `new Worker` inside a worker, just after the worker
// instantiated its shared-memory module, sometimes never returned (2 page
// loads in 20 here stayed at "Starting the model worker…"); the page now starts
// the helper threads itself. Each fresh load must come up on its threads.
test('Firefox: an isolated page comes up on its threaded worker at every load, the page starting its helper threads', async () => {
  for (let i = 0; i < 12; i++) {
    const page = await ff.open(ff.isolated, '?model=bundled', { preload: recordWorkers });
    await modelReady(page, 60_000);
    const shown = await page.$eval('[data-testid="threads"]', (e) => e.textContent);
    const threads = Number(shown.match(/^(\d) threads$/)?.[1]);
    assert.ok(threads >= 2, `load ${i}: ${shown}`);
    assert.deepEqual(await page.evaluate(() => window.ntlWorkers),
      ['./worker_mt_loader.js', ...Array(threads - 1).fill('./worker_mt_helper.js')], `load ${i}`);
    await page.close();
  }
  assert.deepEqual(ff.errors, []);
});

test('Firefox: a share link restores the prompt and lanes and runs them to the same texts', async () => {
  const page = await ff.open(ff.plain);
  await modelReady(page);
  await page.$eval('[data-testid="prompt"]', (e) => {
    e.value = 'In the beginning <b>bold</b>';
    e.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await setKnob(page, 2, 'temperature', 1.2);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 10);
  await runAll(page);
  const texts = await laneTexts(page);
  await page.click('[data-testid="share"]');
  await page.waitForSelector('[data-testid="share-link"]');
  const link = await page.$eval('[data-testid="share-link"]', (e) => e.value);
  assert.ok(link.startsWith(ff.plain) && link.includes('#run=1.'), link);
  await page.close();
  const shared = await ff.open(ff.plain, link.slice(ff.plain.length));
  await waitRunDone(shared, 0, 240_000);
  assert.equal(await shared.$eval('[data-testid="prompt"]', (e) => e.value), 'In the beginning <b>bold</b>');
  assert.equal(await shared.$eval('[data-testid="lane-2"] [data-knob="temperature"]', (e) => e.value), '1.2');
  assert.deepEqual(await laneTexts(shared), texts);
  await shared.close();
});

test('Firefox: the embed snippet pasted into a course page runs without editors', async () => {
  const page = await ff.open(ff.plain);
  await modelReady(page);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 8);
  await page.click('[data-testid="embed"]');
  await page.waitForSelector('[data-testid="embed-code"]');
  const code = await page.$eval('[data-testid="embed-code"]', (e) => e.value);
  assert.match(code, /<iframe[^>]+src="[^"]*\?embed=1#run=1\./);
  await page.close();
  const host = await ff.browser.newPage();
  await host.setContent(`<!doctype html><html><body style="margin:0"><h2>Lesson 3</h2>${code}</body></html>`);
  const frame = await (await host.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => {
    const s = [...document.querySelectorAll('[data-testid="lane-status"]')];
    return s.length === 4 && s.every((e) => e.dataset.stop);
  }, { timeout: 240_000 });
  assert.equal(await frame.$('[data-testid="prompt"]'), null, 'no prompt editor');
  assert.equal((await frame.$$('[data-testid="config-summary"]')).length, 4);
  const texts = await frame.$$eval('[data-testid="lane-text"]', (els) => els.map((e) => e.innerText));
  assert.ok(texts.every((t) => t.length > 0), JSON.stringify(texts));
  await host.close();
});

test('Firefox: a sample tree grows in the worker to the branches and counts decode grew natively, and saves as JSON and SVG', async () => {
  const native = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/native-trees.json'), 'utf8')).trees
    .find((t) => t.model === 'www/models/kjv-gpt2');
  const page = await ff.open(ff.plain);
  await modelReady(page);
  await page.$eval('[data-testid="prompt"]', (e, v) => {
    e.value = v;
    e.dispatchEvent(new Event('input', { bubbles: true }));
  }, native.prompt);
  const edit = '[data-testid="lane-0"] [data-testid="lane-edit"]';
  if ((await page.$eval(edit, (e) => e.getAttribute('aria-expanded'))) !== 'true') await page.click(edit);
  await page.waitForSelector('[data-testid="lane-json-0"]');
  await page.$eval('[data-testid="lane-json-0"]', (e, v) => {
    e.closest('details').open = true;
    e.value = v;
    e.dispatchEvent(new Event('input', { bubbles: true }));
    e.dispatchEvent(new Event('change', { bubbles: true }));
  }, JSON.stringify(native.config));
  await page.select('[data-testid="tree-samples"]', String(native.samples));
  await page.select('[data-testid="tree-tokens"]', String(native.tokens));
  await page.click('[data-testid="tree-grow"]');
  await page.waitForSelector('[data-testid="tree-summary"]', { timeout: 300_000 });
  const json = await download(ff, page, '[data-testid="tree-export-json"]');
  const doc = JSON.parse(json.text);
  assert.deepEqual(doc.tree.nodes.map((n) => [n.parent ?? -1, n.token_id, n.count]), native.nodes);
  const svg = await download(ff, page, '[data-testid="tree-export-svg"]');
  assert.match(svg.text, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.deepEqual(ff.errors, []);
  await page.close();
});

test('Firefox: a beam lane run live is drawn as the tree decode\'s steps give, and saves it', async () => {
  const native = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/native-beam-tree.json'), 'utf8'));
  const page = await ff.open(ff.plain);
  await modelReady(page);
  await page.$eval('[data-testid="prompt"]', (e, v) => {
    e.value = v;
    e.dispatchEvent(new Event('input', { bubbles: true }));
  }, native.prompt);
  for (const [lane, config] of [[0, { max_new_tokens: 8 }], [1, native.config]]) {
    const edit = `[data-testid="lane-${lane}"] [data-testid="lane-edit"]`;
    if ((await page.$eval(edit, (e) => e.getAttribute('aria-expanded'))) !== 'true') await page.click(edit);
    await page.waitForSelector(`[data-testid="lane-json-${lane}"]`);
    await page.$eval(`[data-testid="lane-json-${lane}"]`, (e, v) => {
      e.closest('details').open = true;
      e.value = v;
      e.dispatchEvent(new Event('input', { bubbles: true }));
      e.dispatchEvent(new Event('change', { bubbles: true }));
    }, JSON.stringify(config));
  }
  await runAll(page);
  await page.waitForSelector('[data-testid="beam-tree-svg"]');
  const boxes = await page.$$eval('[data-testid="beam-tree-node"]', (ns) => ns.map((n) => [
    Number(n.dataset.node), Number(n.dataset.step), n.dataset.fate, n.dataset.answer === 'true',
  ]).sort((a, b) => a[0] - b[0]));
  assert.deepEqual(boxes, native.tree.nodes.map((n, i) => [i, n.step, n.fate, !!n.on_answer]));
  const json = await download(ff, page, '[data-testid="beam-tree-export-json"]');
  const tree = JSON.parse(json.text).tree;
  const shape = (t) => t.nodes.map((n) => [n.parent ?? -1, n.token_id, n.fate, n.returned ?? -1]);
  assert.deepEqual(shape(tree), shape(native.tree));
  tree.nodes.forEach((n, i) => assert.ok(Math.abs(n.score - native.tree.nodes[i].score) <= 1e-4 * Math.max(1, Math.abs(n.score)), `node ${i}`));
  assert.deepEqual(ff.errors, []);
  await page.close();
});

test('Firefox: a run exports as JSON, CSV and Markdown files that Firefox saves whole', async () => {
  const page = await ff.open(ff.plain);
  await modelReady(page);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 6);
  await runAll(page);
  const json = await download(ff, page, '[data-testid="export-json"]');
  const doc = JSON.parse(json.text);
  assert.equal(doc.runs.length, 4);
  assert.equal(doc.runs[0].steps.length, 6);
  assert.deepEqual(doc.runs.map((r) => r.text), await laneTexts(page).then((t) => t.map((s) => s.replaceAll('↵', ''))));
  const csv = await download(ff, page, '[data-testid="export-csv"]');
  assert.match(csv.name, /\.csv$/);
  assert.match(csv.text, /^lane,mode,step,chosen_id,chosen_token/);
  const md = await download(ff, page, '[data-testid="export-markdown"]');
  assert.match(md.text, /^\*\*Prompt:\*\*/);
  assert.deepEqual(ff.errors, []);
  await page.close();
});

test('Firefox: a hub model through the CDN redirect, cut off at 60 % and resumed, on the isolated page\'s threaded worker', async () => {
  const dir = join(ROOT, 'dist', 'models', 'kjv-gpt2');
  const files = Object.fromEntries(['config.json', 'model.safetensors', 'tokenizer.json'].map((f) => [f, readFileSync(join(dir, f))]));
  const hub = await startHub({ 'teacher/firefox-gpt2': files });
  // Every host name resolves to 127.0.0.1 (the simulated hub); its certificate is self-signed.
  const fx = await startFirefox({ prefs: { 'network.dns.forceResolve': '127.0.0.1', 'network.trr.mode': 5 }, acceptInsecureCerts: true });
  try {
    hub.fault('teacher/firefox-gpt2', 'model.safetensors', { cutAt: 0.6 });
    const page = await fx.open(fx.isolated, '?model=teacher/firefox-gpt2');
    await modelReady(page);
    assert.match(await page.$eval('[data-testid="model-status"]', (e) => e.textContent), /teacher\/firefox-gpt2.*[2-4] threads/);
    const gets = hub.log.filter((e) => e.host === CDN && e.file === 'model.safetensors');
    const size = files['model.safetensors'].length;
    assert.deepEqual(gets.map((e) => [e.range === null, e.status]), [[true, 200], [false, 206]]);
    // From the bytes the page held (the browser drops what its stream had queued unread at the cut).
    const from = Number(/^bytes=(\d+)-$/.exec(gets[1].range)?.[1]);
    assert.ok(from > 0 && from <= Math.floor(size * 0.6), `resumed where it stopped, not from the start: ${gets[1].range}`);
    assert.equal(gets[1].bytes, size - from);
    for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 8);
    await runAll(page);
    assert.ok((await laneTexts(page)).every((t) => t.length > 0));
    await page.close();
    assert.deepEqual(fx.errors, []);
  } finally {
    await fx.close();
    await hub.close();
  }
});

test('Firefox: ?lesson= opens a lesson, its question hides the lanes until a typed guess is answered, and the reveal ranks it', async () => {
  const page = await ff.open(ff.plain, '?lesson=lessons/walk-003-four-knobs.json');
  await page.waitForSelector('[data-testid="question"]');
  await modelReady(page);
  // The recording: shown by itself while the model loaded, or asked for.
  await page.waitForSelector('[data-testid="lesson-recorded"], [data-testid="lesson-show-recording"]');
  if (!(await page.$('[data-testid="lesson-recorded"]'))) await page.click('[data-testid="lesson-show-recording"]');
  await page.waitForSelector('[data-testid="question-choice"]');
  assert.equal((await page.$$('[data-testid="question-choice"]')).length, 10);
  assert.equal((await page.$$('[data-testid="lane-veiled"]')).length, 1, 'the step\'s one lane');
  assert.deepEqual(await laneTexts(page), []);
  await page.focus('[data-testid="question-typed"]');
  await page.keyboard.type('the');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid="reveal"]');
  assert.equal(await page.$eval('[data-testid="reveal-verdict"]', (e) => e.dataset.right), 'true');
  assert.equal(await page.$eval('[data-testid="reveal-lane"]', (r) => r.cells[2].innerText), '#1');
  assert.match(await page.$eval('[data-testid="quiz-score"]', (e) => e.innerText), /1 right of 1 answered/);
  assert.equal((await page.$$('[data-testid="lane-veiled"]')).length, 0);
  assert.match((await laneTexts(page))[0], /the/);
  assert.deepEqual(ff.errors, []);
  await page.close();
});

test('Firefox, in Chinese: a Chinese lesson file opens in Chinese with no English chrome, its question takes a typed guess, and a Chinese prompt shows no U+FFFD', async () => {
  const page = await ff.open(ff.plain, '?lesson=lessons/walk-003-four-knobs.zh-CN.json');
  await page.waitForSelector('[data-testid="question"]');
  await modelReady(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  await page.waitForSelector('[data-testid="lesson-recorded"], [data-testid="lesson-show-recording"]');
  if (!(await page.$('[data-testid="lesson-recorded"]'))) await page.click('[data-testid="lesson-show-recording"]');
  await page.waitForSelector('[data-testid="question-choice"]');
  const left = { question: await englishChrome(page) };
  await page.focus('[data-testid="question-typed"]');
  await page.keyboard.type('the');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid="reveal"]');
  assert.equal(await page.$eval('[data-testid="reveal-verdict"]', (e) => e.dataset.right), 'true');
  assert.match(await page.$eval('[data-testid="quiz-score"]', (e) => e.innerText), /1/);
  left.revealed = await englishChrome(page);
  assert.deepEqual(left, { question: [], revealed: [] });
  await page.close();

  const typed = await ff.open(ff.plain, '?model=bundled&lang=zh-CN');
  await modelReady(typed);
  await typed.$eval('[data-testid="prompt"]', (e) => { e.value = ''; });
  await typed.focus('[data-testid="prompt"]');
  await typed.keyboard.type('我们今天学习');
  await runAll(typed);
  assert.equal((await typed.$eval('body', (b) => b.innerText)).includes('\uFFFD'), false, 'no replacement character anywhere');
  const texts = await laneTexts(typed);
  assert.equal(texts.length, 4, JSON.stringify(texts));
  assert.ok(texts.every((t) => t.length > 0), JSON.stringify(texts));
  assert.deepEqual(ff.errors, []);
  await typed.close();
});

test('Firefox: projector mode shows a lesson step large with no editors and Space reveals it; Print gathers every step into a handout that prints as pages', async () => {
  const LESSON = 'lessons/walk-003-four-knobs.json';
  const lesson = JSON.parse(readFileSync(join(ROOT, 'www', LESSON), 'utf8'));
  const page = await ff.open(ff.plain, `?lesson=${LESSON}&present=1`);
  await page.setViewport({ width: 1024, height: 768 });
  await page.waitForSelector('.page.present [data-testid="question"]');
  await page.waitForSelector('[data-testid="lesson-recorded"]');
  for (const id of ['prompt', 'lane-edit', 'inspector', 'sandbox', 'share', 'preset']) {
    assert.equal((await page.$$(`[data-testid="${id}"]`)).length, 0, id);
  }
  assert.equal((await page.$$('[data-testid="lane-veiled"]')).length, 1);
  // Puppeteer's BiDi keyboard names the space bar by its character.
  await page.keyboard.press(' ');
  await page.waitForSelector('[data-testid="reveal"]');
  await page.waitForSelector('[data-testid="lane-text"]');
  const px = await page.$eval('[data-testid="lane-text"]', (e) => parseFloat(getComputedStyle(e).fontSize));
  assert.ok(px >= 24, `lane text ${px} px`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'no sideways scrolling');
  await page.close();

  // The print dialog is counted, not opened (set before the page's scripts run).
  const stubPrint = () => { window.printed = 0; window.print = () => { window.printed += 1; }; };
  const teacher = await ff.open(ff.plain, `?lesson=${LESSON}`, { preload: stubPrint });
  await teacher.waitForSelector('[data-testid="question"]');
  await teacher.waitForSelector('[data-testid="lesson-recorded"]');
  // A DOM click: the panel still moves while the model comes up, and a
  // click at coordinates taken a moment before can land beside the button.
  await teacher.$eval('[data-testid="print-handout"]', (b) => b.click());
  await teacher.waitForFunction(() => window.printed === 1, { timeout: 120_000 });
  const steps = await teacher.$$eval('[data-testid="handout-step"]', (s) => s.map((e) => e.textContent));
  assert.equal(steps.length, lesson.steps.length);
  for (const [i, step] of lesson.steps.entries()) {
    assert.ok(steps[i].includes(`Step ${i + 1}: ${step.title}`), steps[i].slice(0, 120));
    const runs = JSON.parse(readFileSync(join(ROOT, 'www', 'lessons', step.recording), 'utf8')).runs;
    for (const r of runs) assert.ok(steps[i].includes(r.text.trim()), `step ${i + 1}: ${r.text.trim()}`);
  }
  const asked = lesson.steps.flatMap((s) => s.questions ?? []).length;
  assert.equal((await teacher.$$('[data-testid="handout-answer"]')).length, asked);
  // Firefox's own print engine (WebDriver BiDi's print) lays it out as pages.
  const pdf = Buffer.from(await teacher.pdf({ format: 'A4' }));
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  const pages = pdfPages(pdf);
  assert.ok(pages >= 3, `${pages} pages`);
  assert.deepEqual(ff.errors, []);
  await teacher.close();
});

/// A PDF's page objects, those inside compressed object streams too
/// (Firefox's print engine packs them there).
function pdfPages(pdf) {
  const text = pdf.toString('latin1');
  const pageObjects = (t) => (t.match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  let pages = pageObjects(text);
  for (const m of text.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    try {
      pages += pageObjects(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      // Not a deflated stream (or an image): no page objects in it.
    }
  }
  return pages;
}

/// Types `value` into a field as a person would (input events, as yew listens).
async function fill(page, selector, value) {
  await page.$eval(selector, (e, v) => {
    e.value = v;
    e.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

test('Firefox: a teacher saves the page as a lesson step with a question, downloads the lesson file, and packs it as a SCORM zip', async () => {
  const page = await ff.open(ff.plain);
  await modelReady(page);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 6);
  await runAll(page);
  const texts = (await laneTexts(page)).map((s) => s.replaceAll('↵', ''));
  await fill(page, '[data-testid="writer-step-title"]', 'Six tokens each');
  await fill(page, '[data-testid="writer-note"]', 'Guess first.');
  await page.select('[data-testid="writer-question-kind"]', 'choice');
  await fill(page, '[data-testid="writer-question-ask"]', 'Do all four lanes agree?');
  await fill(page, '[data-testid="writer-question-options"]', 'Yes\nNo');
  await fill(page, '[data-testid="writer-question-answer"]', '2');
  await page.click('[data-testid="writer-save-step"]');
  await page.waitForSelector('[data-testid="writer-step"]');
  assert.equal(await page.$eval('[data-testid="writer-status"]', (e) => e.textContent), 'Saved as step 1 of 1.');
  await fill(page, '[data-testid="writer-title"]', 'Firefox lesson');
  const file = await download(ff, page, '[data-testid="writer-download"]');
  assert.equal(file.name, 'firefox-lesson.json');
  const lesson = JSON.parse(file.text);
  assert.equal(lesson.steps[0].title, 'Six tokens each');
  assert.deepEqual(lesson.steps[0].recording.runs.map((r) => r.text), texts, 'the run on screen, inline');
  assert.deepEqual(lesson.steps[0].questions[0].options, ['Yes', 'No']);

  // Preview, then pack the previewed lesson: its run is inline, so it travels in lesson.json.
  await page.click('[data-testid="writer-preview"]');
  await page.waitForSelector('[data-testid="question"][data-state="open"]');
  await page.click('[data-testid="package"]');
  await page.waitForSelector('[data-testid="package-offer"]');
  const zip = await download(ff, page, '[data-testid="package-download"]', 120_000);
  assert.equal(zip.name, 'firefox-lesson-scorm.zip');
  const site = JSON.parse(readFileSync(join(ROOT, 'dist', 'site-files.json'), 'utf8'));
  const listed = execFileSync('python3', ['-m', 'zipfile', '-l', zip.path], { encoding: 'utf8' });
  for (const f of site) assert.ok(listed.includes(`app/${f.path}`), `app/${f.path} packed`);
  assert.match(listed, /imsmanifest\.xml/);
  assert.deepEqual(ff.errors, []);
  await page.close();
});

test("Firefox: the tutorial's MiniGPT shipped beside the page runs seed 004's loop past its context to the recorded ids, beside an HF lane that stops", async () => {
  const lessons = join(ROOT, 'www', 'lessons');
  const step = JSON.parse(readFileSync(join(lessons, 'walk-004-tutorial-minigpt.json'), 'utf8')).steps[1];
  const recorded = JSON.parse(readFileSync(join(lessons, step.recording), 'utf8'));
  const link = '#run=1.' + deflateRawSync(Buffer.from(JSON.stringify({ prompt: step.prompt, lanes: step.lanes, model: 'models/tutorial-minigpt/' }))).toString('base64url');
  const page = await ff.open(ff.plain, '?model=bundled' + link);
  await page.waitForSelector('[data-testid="confirm-load"]', { timeout: 60_000 });
  await page.click('[data-testid="confirm-load"]');
  await modelReady(page);
  await runAll(page);
  const doc = JSON.parse((await download(ff, page, '[data-testid="export-json"]')).text);
  const ids = (d) => d.runs.map((r) => [r.mode, r.stop_reason, r.token_ids]);
  assert.deepEqual(ids(doc), ids(recorded));
  assert.equal(doc.runs[0].token_ids.length, 150, 'the tutorial lane went past the 128 positions');
  assert.deepEqual(ff.errors, []);
  await page.close();
});

test('Firefox: lanes on two models — KJV GPT-2 and the MiniGPT named in a link — load the second beside the first and write the lesson recording\'s ids, on both worker builds', async () => {
  const lesson = JSON.parse(readFileSync(join(ROOT, 'www', 'lessons', 'knobs-or-model.json'), 'utf8'));
  const step = lesson.steps[0];
  const recorded = JSON.parse(readFileSync(join(ROOT, 'www', 'lessons', step.recording), 'utf8'));
  const link = '#run=1.' + deflateRawSync(Buffer.from(JSON.stringify({
    prompt: step.prompt, lanes: step.lanes, model: 'bundled', lane_models: step.lane_models,
  }))).toString('base64url');
  for (const base of [ff.plain, ff.isolated]) {
    const page = await ff.open(base, '?model=bundled' + link);
    await modelReady(page);
    await waitRunDone(page, 0, 240_000);
    const lines = await page.$$eval('[data-testid="lane-model"]', (ls) => ls.map((l) => [l.dataset.model, l.dataset.status]));
    assert.deepEqual(lines, [['models/tutorial-minigpt/', 'ready'], ['models/tutorial-minigpt/', 'ready']]);
    const doc = JSON.parse((await download(ff, page, '[data-testid="export-json"]')).text);
    assert.deepEqual(doc.runs.map((r) => r.token_ids), recorded.runs.map((r) => r.token_ids), base);
    assert.deepEqual(doc.runs.map((r) => r.model?.name ?? null), step.lane_models.map((m) => m ?? null));
    await page.close();
  }
  assert.deepEqual(ff.errors, []);
});

test('Firefox: the page\'s model in 8 bits beside a lane naming it as stored says each step\'s KL from full precision', async () => {
  const link = '#run=1.' + deflateRawSync(Buffer.from(JSON.stringify({
    prompt: 'In the beginning God created',
    lanes: [{ do_sample: false, max_new_tokens: 8 }, { do_sample: false, max_new_tokens: 8 }],
    model: 'bundled', weights: 'q8_0', lane_models: [null, 'bundled'],
  }))).toString('base64url');
  const page = await ff.open(ff.plain, '?model=bundled' + link);
  await modelReady(page);
  await waitRunDone(page, 0, 240_000);
  const tokens = await page.$$('[data-testid="lane-0"] [data-testid="lane-text"] [data-testid="token"]');
  await tokens[2].click();
  const line = '[data-testid="step-table"] [data-testid="drift"][data-state="measured"]';
  await page.waitForSelector(line, { timeout: 60_000 });
  // The line's top probabilities are the two lanes' own at that step (they
  // wrote the same tokens), and its KL is at least the KL their step tables
  // give over a coarser partition.
  const doc = JSON.parse((await download(ff, page, '[data-testid="export-json"]')).text);
  const [steps8, stepsFull] = [doc.runs[0].steps[2], doc.runs[1].steps[2]];
  const [kl, p, ref] = await page.$eval(line, (e) => [e.dataset.kl, e.dataset.p, e.dataset.referenceP].map(Number));
  assert.ok(Math.abs(p - steps8.chosen_raw_prob) < 1e-6, `${p}`);
  assert.ok(Math.abs(ref - stepsFull.chosen_raw_prob) < 1e-6, `${ref}`);
  const coarse = coarseKl(stepsFull.top, steps8.top);
  assert.ok(coarse > 0 && kl >= coarse * (1 - 1e-3) && kl < 1e-3, `${kl} ≥ ${coarse}`);
  assert.equal(await page.$eval(line, (e) => e.dataset.topAgrees), 'true');
  await page.close();
  assert.deepEqual(ff.errors, []);
});
