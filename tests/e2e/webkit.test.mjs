// The page in WebKit (Debian's WebKitGTK, Safari's engine family, through
// WebKitWebDriver): what a student arriving on an iPad's engine does — load
// the bundled model, run the four lanes, open a step and the compare view,
// follow a share link, get past a broken download — and the engine's
// documents equal Chromium's to the bit. WebKitGTK says it is cross-origin
// isolated but gives pages no SharedArrayBuffer (WebKit bug 268068), so every
// page here runs the single-threaded worker, and the model line says why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { driveWorker } from './worker_client.mjs';
import { REQUESTS, TREES, chromiumReference } from './worker_requests.mjs';
import { startWebKit, evaluate, waitFor, text, attr, click, modelReady, runAll, laneTexts, setKnob } from './webkit_harness.mjs';

let wk;
before(async () => { wk = await startWebKit(); });
after(async () => { await wk?.close(); });

const open = (base, query = '?model=bundled') => wk.driver.get(base + query);
const noError = async () => assert.equal(await text(wk.driver, '[data-testid="error"]'), null);

test('WebKit: the single-threaded worker gives exactly Chromium\'s documents — seeded ids, probabilities, every step', async () => {
  const reference = await chromiumReference();
  await open(wk.plain);
  await modelReady(wk.driver);
  const got = await wk.driver.executeAsyncScript(
    `const done = arguments[arguments.length - 1];
     (${driveWorker})(arguments[0]).then(done, (e) => done({ error: String(e && e.stack || e) }));`,
    { loader: './worker_loader.js', modelBase: 'models/kjv-gpt2', requests: REQUESTS, trees: TREES });
  assert.equal(got.error, undefined, got.error);
  assert.equal(got.loaded.threads, 1);
  assert.equal(got.finished.length, REQUESTS.length);
  for (const [i, done] of got.finished.entries()) {
    assert.deepEqual(done.document, reference.finished[i].document, `WebKit ${wk.version}, request ${i}`);
  }
  assert.equal(got.grown.length, TREES.length);
  for (const [i, g] of got.grown.entries()) {
    assert.deepEqual(g.document, reference.grown[i].document, `WebKit ${wk.version}, tree ${i}`);
  }
});

for (const host of ['isolated', 'plain']) {
  test(`WebKit on ${host === 'plain' ? 'a plain' : 'an isolated'} host: the model line says which worker runs and why, four lanes run, a step opens the compare view`, async () => {
    const d = wk.driver;
    await open(wk[host]);
    await modelReady(d);
    const abilities = await evaluate(d, () => ({ isolated: self.crossOriginIsolated, sab: typeof SharedArrayBuffer }));
    assert.equal(abilities.isolated, host === 'isolated');
    // Detected, not assumed: were SharedArrayBuffer here, the threaded worker would run.
    const why = abilities.isolated ? (abilities.sab === 'function' ? '' : 'no-shared-array-buffer') : 'not-isolated';
    assert.equal(await attr(d, '[data-testid="threads"]', 'data-why'), why);
    if (why) {
      assert.equal(await attr(d, '[data-testid="threads"]', 'data-worker'), 'single');
      assert.match(await text(d, '[data-testid="threads"]'), /^1 thread — single-threaded worker: /);
    }
    for (let l = 0; l < 4; l++) await setKnob(d, l, 'max_new_tokens', 10);
    await runAll(d);
    const texts = await laneTexts(d);
    assert.equal(texts.length, 4);
    assert.ok(texts.every((t) => t.length > 0), JSON.stringify(texts));
    // A sampled token's step: its table, one chosen row, then all four lanes at that step.
    await click(d, '[data-testid="grid-cell"][data-lane="1"][data-step="2"]');
    await waitFor(d, () => !!document.querySelector('[data-testid="compare"][data-step="2"]'), null, 'the compare view at step 3');
    const lanes = await evaluate(d, () => document.querySelectorAll('[data-testid="compare-lane"]').length);
    assert.equal(lanes, 4);
    const probs = await evaluate(d, () => [...document.querySelectorAll('[data-testid="compare-lane"][data-lane="1"] [data-testid="candidate"]')].map((r) => Number(r.dataset.prob)));
    assert.ok(probs.length >= 5 && probs.reduce((a, b) => a + b, 0) <= 1 + 1e-5, JSON.stringify(probs));
    await noError();
  });
}

test('WebKit: a share link opens on the same prompt and lanes and runs them to the same texts', async () => {
  const d = wk.driver;
  await open(wk.isolated);
  await modelReady(d);
  await evaluate(d, () => { const p = document.querySelector('[data-testid="prompt"]'); p.value = 'In the beginning'; p.dispatchEvent(new Event('input', { bubbles: true })); return true; });
  for (let l = 0; l < 4; l++) await setKnob(d, l, 'max_new_tokens', 8);
  await setKnob(d, 1, 'temperature', 1.3);
  await runAll(d);
  const texts = await laneTexts(d);
  await click(d, '[data-testid="share"]');
  await waitFor(d, () => !!document.querySelector('[data-testid="share-link"]')?.value, null, 'the share link');
  const link = await evaluate(d, () => document.querySelector('[data-testid="share-link"]').value);
  await d.get(link);
  await modelReady(d);
  await waitFor(d, () => {
    const s = [...document.querySelectorAll('[data-testid="lane-status"]')];
    return document.querySelector('.page').dataset.running === 'false' && s.length === 4 && s.every((e) => e.dataset.stop);
  }, null, 'the link\'s run');
  assert.equal(await evaluate(d, () => document.querySelector('[data-testid="prompt"]').value), 'In the beginning');
  assert.deepEqual(await laneTexts(d), texts);
  await noError();
});

test('WebKit: a model download whose connection drops half-way is fetched again and the model loads whole', async () => {
  const d = wk.driver;
  // Empty the model cache first: earlier tests filled it.
  await open(wk.plain);
  await modelReady(d);
  await evaluate(d, () => caches.delete('ntl-models-v1'));
  const path = '/models/kjv-gpt2/model.safetensors';
  const before = wk.asked.get(path) || 0;
  wk.cuts.add(path);
  await open(wk.plain);
  await modelReady(d);
  assert.equal(wk.cuts.size, 0, 'the download was cut');
  assert.ok(wk.asked.get(path) - before >= 2, `asked ${wk.asked.get(path) - before} times: the cut, then again`);
  for (let l = 0; l < 4; l++) await setKnob(d, l, 'max_new_tokens', 4);
  await runAll(d);
  assert.ok((await laneTexts(d)).every((t) => t.length > 0));
  await noError();
});
