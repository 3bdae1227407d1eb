// Lessons as files: ?lesson= opens a lesson from this site on the model it
// names, shows each step's recorded run before anything runs, and a live run
// writes exactly the recording; bad and hostile lessons are refused or shown
// as text, and the page keeps its state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { start, modelReady, runAll, laneTexts, ROOT } from './harness.mjs';

let env;
before(async () => { env = await start({ isolated: false }); });
after(async () => { await env?.close(); });

const lessonFile = (name) => JSON.parse(readFileSync(join(ROOT, 'www', 'lessons', name), 'utf8'));
const text = (page, id) => page.textContent(`[data-testid="${id}"]`);

test('?lesson= opens a lesson on its own model, shows each step\'s recording, and a live run writes the same', async () => {
  const lesson = lessonFile('walk-001-logits-to-tokens.json');
  const page = await env.open('?lesson=lessons/walk-001-logits-to-tokens.json');
  await page.waitForSelector('[data-testid="lesson-title"]');
  assert.match(await text(page, 'lesson-title'), /From logits to tokens/);
  assert.match(await text(page, 'lesson-step'), /Step 1 of 6: What the model outputs/);
  assert.equal(await page.inputValue('[data-testid="prompt"]'), 'The cat ran after a');
  await modelReady(page);
  assert.match(await text(page, 'model-status'), /bundled/i, 'the lesson names the bundled model');
  assert.equal(await page.$eval('[data-testid="preset"]', (s) => s.value), 'open', 'not a built-in lesson');

  await page.click('[data-testid="lesson-next"]');
  assert.match(await text(page, 'lesson-step'), /Step 2 of 6: Softmax and temperature/);
  assert.match(await page.inputValue('[data-testid="lane-json-1"]'), /"temperature": 0.5/);
  assert.match(await text(page, 'preset-notice'), /Temperature T divides the logits first/);
  // The model is ready: the recording waits to be asked for.
  await page.click('[data-testid="lesson-show-recording"]');
  await page.waitForSelector('[data-testid="lesson-recorded"]');
  const recorded = await laneTexts(page);
  const file = JSON.parse(readFileSync(join(ROOT, 'www', 'lessons', lesson.steps[1].recording), 'utf8'));
  assert.equal(file.runs.length, 4);
  for (const [i, run] of file.runs.entries()) {
    const squash = (s) => s.replace(/[\s↵·⏎]/g, '');
    assert.equal(squash(recorded[i]), squash(run.text), `lane ${i + 1} shows the recording`);
  }
  await runAll(page);
  assert.deepEqual(await laneTexts(page), recorded, 'the browser\'s live run is the recording');
  assert.equal(await page.locator('[data-testid="lesson-recorded"]').count(), 0);
  assert.deepEqual(env.errors, []);
  await page.close();
});

test('a lesson with a bad field is refused by its path and the page keeps its lesson and lanes', async () => {
  const good = lessonFile('walk-003-four-knobs.json');
  const bad = structuredClone(good);
  bad.steps[1].questions = [{ kind: 'next_token', lane: 9 }];
  await env.context.route('**/mine/bad.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(bad) }));
  const page = await env.open('?model=bundled&lesson=mine/bad.json');
  await modelReady(page);
  await page.waitForSelector('[data-testid="lesson-error"]');
  const error = await text(page, 'lesson-error');
  assert.match(error, /steps\[1\]\.questions\[0\]\.lane/);
  assert.match(error, /lane 9 does not exist/);
  assert.equal(await page.inputValue('[data-testid="prompt"]'), 'The best way to learn programming is', 'the first lesson stays');
  await page.close();

  // Another site is never asked.
  const asked = [];
  env.context.on('request', (r) => { if (new URL(r.url()).hostname === 'evil.example') asked.push(r.url()); });
  const p2 = await env.open('?model=bundled&lesson=https://evil.example/lesson.json');
  await p2.waitForSelector('[data-testid="lesson-error"]');
  assert.match(await text(p2, 'lesson-error'), /another site/);
  assert.deepEqual(asked, []);
  await p2.close();
});

test('a hostile lesson\'s prose is shown as text: no script, no image, no javascript: link', async () => {
  const hostile = {
    version: 1, title: 'Hostile <b>title</b>', language: 'en', model: 'bundled',
    steps: [{
      prose: 'Hello <script>window.pwned = 1</script> and <img src=x onerror="window.pwned = 2"> and [click me](javascript:window.pwned=3) and [fine](https://example.org/) and ![alt text](https://evil.example/track.png)',
      prompt: 'The cat', lanes: [{ max_new_tokens: 2 }],
    }],
  };
  const asked = [];
  env.context.on('request', (r) => { if (/evil\.example|example\.org/.test(r.url())) asked.push(r.url()); });
  await env.context.route('**/hostile.json', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(hostile) }));
  const page = await env.open('?model=bundled&lesson=hostile.json');
  await page.waitForSelector('[data-testid="lesson-title"]');
  const prose = page.locator('[data-testid="lesson-prose"]');
  assert.match(await prose.textContent(), /<script>window\.pwned = 1<\/script>/, 'raw HTML shows as text');
  assert.equal(await prose.locator('script, img, b').count(), 0);
  assert.match(await text(page, 'lesson-title'), /Hostile <b>title<\/b>/);
  const links = await prose.locator('a').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href'), a.target, a.rel]));
  assert.deepEqual(links, [
    ['click me', null, '', ''],
    ['fine', 'https://example.org/', '_blank', 'noopener noreferrer'],
  ]);
  assert.match(await prose.textContent(), /alt text/);
  await page.click('[data-testid="lesson-prose"] a >> text=click me');
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(asked, [], 'nothing is loaded from the prose');
  await page.close();
});

test('a picked lesson file opens at its first step, and steps without a reachable recording say nothing of one', async () => {
  const page = await env.open();
  await modelReady(page);
  const mine = {
    version: 1, title: 'Mine', language: 'en',
    steps: [
      { title: 'Greedy', prose: 'One lane.', prompt: 'In the beginning', lanes: [{ max_new_tokens: 5 }], recording: 'r/one.json' },
      { title: 'Sampled', prose: 'Two lanes.', prompt: 'And God said', lanes: [{}, { do_sample: true, seed: 3, max_new_tokens: 5 }] },
    ],
  };
  await page.setInputFiles('[data-testid="lesson-file"]', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(mine)) });
  await page.waitForSelector('[data-testid="lesson-title"]');
  assert.match(await text(page, 'lesson-title'), /Mine — from the file mine\.json/);
  assert.equal(await page.inputValue('[data-testid="prompt"]'), 'In the beginning');
  assert.equal(await page.locator('[data-testid="lesson-show-recording"]').count(), 0);
  await page.keyboard.press('Tab');
  await page.focus('[data-testid="lesson-next"]');
  await page.keyboard.press('Enter');
  assert.match(await text(page, 'lesson-step'), /Step 2 of 2: Sampled/);
  assert.match(await page.inputValue('[data-testid="lane-json-1"]'), /"seed": 3/);
  // A built-in lesson from the list replaces it.
  await page.selectOption('[data-testid="preset"]', { label: 'Top-k vs top-p' });
  assert.equal(await page.locator('[data-testid="lesson-title"]').count(), 0, 'a one-step built-in lesson needs no title line');
  assert.match(await text(page, 'preset-notice'), /top-k keeps a fixed number/);
  await page.close();
});

test('an embedded lesson shows its recording with no model request until "Run live", and sizes its iframe in the course page', async () => {
  // The embed code's listener, as a teacher copies it.
  const page = await env.open();
  await modelReady(page);
  await page.click('[data-testid="embed"]');
  const code = await page.inputValue('[data-testid="embed-code"]');
  const listener = code.slice(code.indexOf('<script>'));
  assert.match(listener, /next-token-lab:height/);
  await page.close();

  const models = [];
  const onRequest = (r) => { if (new URL(r.url()).pathname.includes('/models/')) models.push(r.url()); };
  env.context.on('request', onRequest);
  const lesson = lessonFile('four-runs.json');
  const file = JSON.parse(readFileSync(join(ROOT, 'www', 'lessons', lesson.steps[0].recording), 'utf8'));
  const host = await env.context.newPage();
  await host.setContent(`<!doctype html><html><body style="margin:0"><h2>Week 3</h2>
    <script>window.got = []; addEventListener('message', (e) => got.push(e.data));</script>
    <iframe src="${env.base}?embed=1&amp;lesson=lessons/four-runs.json" width="100%" height="300"></iframe>
    ${listener}</body></html>`);
  const frame = await (await host.waitForSelector('iframe')).contentFrame();
  await frame.waitForSelector('[data-testid="lesson-recorded"]');
  assert.match(await frame.textContent('[data-testid="lesson-title"]'), /Four runs, one prompt/);
  const squash = (s) => s.replace(/[\s↵·⏎]/g, '');
  const recorded = await laneTexts(frame);
  assert.deepEqual(recorded.map(squash), file.runs.map((r) => squash(r.text)));
  assert.match(await frame.textContent('[data-testid="download-size"]'), /downloads \d+(\.\d)? MB/);
  // The course page hears the frame's height, in the lab's message and LTI's, and the listener applies it.
  await host.waitForFunction(() => got.some((m) => m?.subject === 'lti.frameResize') && got.some((m) => m?.type === 'next-token-lab:height'));
  const told = await host.evaluate(() => got.filter((m) => m?.type === 'next-token-lab:height').at(-1).height);
  assert.ok(told > 300, `the lesson is taller than the frame: ${told}`);
  await host.waitForFunction((h) => document.querySelector('iframe').style.height === `${h}px`, told);
  await host.waitForTimeout(1000);
  assert.deepEqual(models, [], 'no model file was asked for');

  await frame.click('[data-testid="run-live"]');
  await frame.waitForSelector('[data-testid="model-status"][data-state="ready"]', { timeout: 120_000 });
  await frame.waitForFunction(() => {
    const run = document.querySelector('.page').dataset;
    const s = [...document.querySelectorAll('[data-testid="lane-status"]')];
    return run.running === 'false' && run.replay === 'false' && s.length > 0 && s.length === document.querySelectorAll('section.lane').length && s.every((e) => e.dataset.stop && e.dataset.run === run.run);
  }, null, { timeout: 240_000 });
  assert.ok(models.length > 0, 'the model downloaded on request');
  assert.deepEqual(await laneTexts(frame), recorded, 'the live run writes the recording');
  env.context.off('request', onRequest);
  await host.close();
});

test('a lesson step with two lanes shows and runs two, Add a lane copies the last, and a share link keeps the count', async () => {
  const page = await env.open('?lesson=lessons/walk-003-four-knobs.json');
  await modelReady(page);
  await page.click('[data-testid="lesson-next"]');
  assert.match(await page.innerText('[data-testid="lesson-step"]'), /Step 2 of 8/);
  const lanes = () => page.locator('section.lane').count();
  assert.equal(await lanes(), 2, 'the step\'s two lanes, not four');
  await runAll(page);
  assert.equal((await laneTexts(page)).length, 2);
  await page.click('[data-testid="lane-0"] [data-testid="token"] >> nth=2');
  await page.waitForSelector('[data-testid="compare"]');
  assert.equal(await page.locator('[data-testid="compare-lane"]').count(), 2, 'a column per lane that ran');
  assert.equal(await page.locator('[data-testid="step-grid"] thead th').count(), 3, 'step, lane 1, lane 2');

  await page.click('[data-testid="add-lane"]');
  assert.equal(await lanes(), 3);
  await page.click('[data-testid="lane-2"] [data-testid="lane-edit"]');
  await page.click('[data-testid="lane-1"] [data-testid="lane-edit"]');
  assert.equal(await page.inputValue('[data-testid="lane-json-2"]'), await page.inputValue('[data-testid="lane-json-1"]'), 'a copy of the last lane');
  await runAll(page);
  assert.equal((await laneTexts(page)).length, 3);
  await page.click('[data-testid="share"]');
  const link = await page.inputValue('[data-testid="share-link"]');
  await page.click('[data-testid="remove-lane"]');
  await page.click('[data-testid="remove-lane"]');
  assert.equal(await lanes(), 1);
  assert.equal(await page.locator('[data-testid="remove-lane"]').count(), 0, 'one lane stays');

  const shared = await env.open(link.slice(env.base.length));
  await modelReady(shared);
  await shared.waitForFunction(() => [...document.querySelectorAll('[data-testid="lane-status"]')].every((e) => e.dataset.stop));
  assert.equal(await shared.locator('section.lane').count(), 3, 'the link\'s three lanes');
  assert.deepEqual(env.errors, []);
  await shared.close();
  await page.close();
});

test('a lesson travels whole in a link: copied from the site, it opens on the same step list with its recordings, and a cut link says why', async () => {
  const page = await env.open('?lesson=lessons/walk-001-logits-to-tokens.json&lang=zh-CN');
  await page.waitForSelector('[data-testid="lesson-title"]');
  await page.click('[data-testid="lesson-link-copy"]');
  const link = await page.inputValue('[data-testid="lesson-link"]');
  assert.ok(link.startsWith(env.base + '?lang=zh-CN#lesson=1.'), link);
  assert.ok(link.length < 8000, `${link.length} characters`);
  assert.equal(await page.locator('[data-testid="lesson-link-left"]').count(), 0, 'every recording travels as its path');
  await page.close();

  // A student's browser: nothing fetched for the lesson, the recording from the site.
  const fetched = [];
  env.context.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const student = await env.open(link.slice(env.base.length));
  await student.waitForSelector('[data-testid="lesson-recorded"]');
  assert.match(await text(student, 'lesson-title'), /From logits to tokens.* — 来自链接/);
  assert.match(await text(student, 'lesson-step'), /6/);
  assert.equal(await student.inputValue('[data-testid="prompt"]'), 'The cat ran after a');
  assert.ok(!fetched.some((p) => p.endsWith('walk-001-logits-to-tokens.json')), fetched.join(' '));
  assert.ok(fetched.some((p) => p.endsWith('lessons/recordings/walk-001-logits-to-tokens-1.json')), fetched.join(' '));
  await student.close();

  const cut = await env.open(link.slice(env.base.length, env.base.length + 200));
  await cut.waitForSelector('[data-testid="lesson-error"]');
  assert.match(await text(cut, 'lesson-error'), /^无法打开这个课程链接：/);
  assert.deepEqual(env.errors, []);
  await cut.close();
});

test('a course page that runs H5P\'s resizer (Moodle, WordPress) sizes the embedded lesson through the resizer\'s own handshake', async () => {
  const host = await env.context.newPage();
  // The parent side of H5P's resizer protocol, as h5p-resizer.js speaks it:
  // answer hello, reset the frame and answer prepareResize, apply resize.
  await host.setContent(`<!doctype html><html><body style="margin:0"><h2>Week 3</h2>
    <iframe src="${env.base}?embed=1&amp;lesson=lessons/four-runs.json" width="100%" height="300"></iframe>
    <script>
      window.heard = [];
      addEventListener('message', (e) => {
        if (e.data?.context !== 'h5p') return;
        heard.push(e.data.action);
        const frame = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === e.source);
        const respond = (action) => e.source.postMessage({ context: 'h5p', action }, e.origin);
        if (e.data.action === 'hello') respond('hello');
        if (e.data.action === 'prepareResize' && (frame.clientHeight !== e.data.scrollHeight || e.data.scrollHeight !== e.data.clientHeight)) {
          frame.style.height = e.data.clientHeight + 'px';
          respond('resizePrepared');
        }
        if (e.data.action === 'resize') frame.style.height = e.data.scrollHeight + 'px';
      });
    </script></body></html>`);
  const frame = await (await host.waitForSelector('iframe')).contentFrame();
  await frame.waitForSelector('[data-testid="lesson-recorded"]');
  await host.waitForFunction(() => ['hello', 'prepareResize', 'resize'].every((a) => heard.includes(a)));
  // The frame ends as tall as the lesson it holds, with nothing to scroll inside.
  await host.waitForFunction(async () => {
    const f = document.querySelector('iframe');
    const inner = f.contentDocument?.documentElement;
    return f.style.height !== '' && parseInt(f.style.height, 10) > 300 && (!inner || inner.scrollHeight <= f.clientHeight + 1);
  });
  const [style, lesson] = await Promise.all([
    host.evaluate(() => parseInt(document.querySelector('iframe').style.height, 10)),
    frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height)),
  ]);
  assert.ok(Math.abs(style - lesson) <= 1, `frame ${style} px, lesson ${lesson} px`);
  assert.deepEqual(env.errors, []);
  await host.close();
});
