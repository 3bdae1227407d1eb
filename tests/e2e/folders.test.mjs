// Model folders beside the page: what a school that cannot reach the model
// hub hosts next to the lesson (dist/models/NAME/). The site here is the
// built page plus two folders — the bundled weights under another name, and a
// folder whose 4.5 GB of weights cannot fit any tab (a sparse file: its size
// is real, nothing is ever written or sent) — and the models/index.json that
// scripts/index-models.mjs writes for them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, symlinkSync, openSync, ftruncateSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { start, modelReady, runAll, laneTexts, setKnob, ROOT } from './harness.mjs';
import { indexModels } from '../../scripts/index-models.mjs';

const DIST = join(ROOT, 'dist');
const BUNDLED = join(DIST, 'models', 'kjv-gpt2');
const requests = [];
let site, env, bundledTexts;

before(async () => {
  site = mkdtempSync(join(tmpdir(), 'ntl-site-'));
  for (const name of readdirSync(DIST)) if (name !== 'models') symlinkSync(join(DIST, name), join(site, name));
  mkdirSync(join(site, 'models'));
  symlinkSync(BUNDLED, join(site, 'models', 'kjv-gpt2'));
  const folder = (name, files) => {
    mkdirSync(join(site, 'models', name));
    for (const f of files) symlinkSync(join(BUNDLED, f), join(site, 'models', name, f));
  };
  folder('class-gpt2', ['config.json', 'tokenizer.json', 'model.safetensors']);
  folder('huge-gpt2', ['config.json', 'tokenizer.json']);
  const fd = openSync(join(site, 'models', 'huge-gpt2', 'model.safetensors'), 'w');
  ftruncateSync(fd, 4_500_000_000);
  closeSync(fd);
  indexModels(join(site, 'models'));
  env = await start({ dir: site, seen: (method, path) => requests.push({ method, path }) });
  const page = await env.open('?model=bundled');
  await modelReady(page);
  bundledTexts = await shortRun(page);
  await page.close();
});
after(async () => {
  await env?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

async function shortRun(page) {
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 8);
  await runAll(page);
  return laneTexts(page);
}

const link = (model) => '#run=1.' + deflateRawSync(Buffer.from(JSON.stringify({ prompt: 'In the beginning', lanes: [{ max_new_tokens: 5 }], model }))).toString('base64url');
const gets = (file) => requests.filter((r) => r.method === 'GET' && r.path === file);

test('?model=models/NAME/ loads a folder hosted with the page, names it, writes what the same weights write, and a share link carries it', async () => {
  const page = await env.open('?model=models/class-gpt2/');
  await modelReady(page);
  assert.match(await page.textContent('[data-testid="model-status"]'), /models\/class-gpt2\/ \(hosted with this page\)/);
  assert.deepEqual(await shortRun(page), bundledTexts);
  assert.ok(gets('/models/class-gpt2/model.safetensors').length >= 1, 'its weights came from the folder');
  await page.click('[data-testid="share"]');
  const shared = new URL(await page.inputValue('[data-testid="share-link"]'));
  const state = JSON.parse(inflateRawSync(Buffer.from(shared.hash.slice('#run=1.'.length), 'base64url')));
  assert.equal(state.model, 'models/class-gpt2/');
  await page.close();
});

test('a link naming a folder shows its size and the memory it needs, downloads nothing until the user agrees, then loads it', async () => {
  const before = gets('/models/class-gpt2/model.safetensors').length;
  const page = await env.context.newPage();
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 0.03 }));
  await page.goto(env.base + link('models/class-gpt2/'));
  await page.waitForFunction(() => /to download|cache/.test(document.querySelector('[data-testid="download-size"]')?.textContent || ''), null, { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid="confirm-model"]'), /model folder `models\/class-gpt2\/` hosted with this page\. Nothing has been downloaded\./);
  // The cache its config.json sizes: the folder's config was read with the size.
  assert.match(await page.textContent('[data-testid="memory-warning"]'), /need about \d+ MB of memory to run with four lanes' cache of \d+ tokens, the download included; this device reports 0\.03 GB/);
  assert.equal(gets('/models/class-gpt2/model.safetensors').length, before, 'measured with HEAD only');
  await page.click('[data-testid="confirm-load"]');
  await modelReady(page);
  assert.match(await page.textContent('[data-testid="model-status"]'), /models\/class-gpt2\//);
  await page.close();
});

test('a folder whose weights cannot fit a tab is refused before a byte of them downloads, and the link\'s prompt stays', async () => {
  const page = await env.context.newPage();
  await page.goto(env.base + link('models/huge-gpt2/'));
  await page.waitForSelector('[data-testid="memory-warning"]', { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid="memory-warning"]'), /^These weights are 4500 MB and need about 4\.\d GB of WebAssembly memory to run with four lanes' cache of \d+ tokens: more than the 4 GB/);
  assert.equal(await page.isDisabled('[data-testid="confirm-load"]'), true);
  assert.equal(await page.inputValue('[data-testid="prompt"]'), 'In the beginning');
  assert.deepEqual(gets('/models/huge-gpt2/model.safetensors'), []);
  assert.ok(requests.some((r) => r.method === 'HEAD' && r.path === '/models/huge-gpt2/model.safetensors'), 'its size was asked');
  await page.close();
});

test('a link naming a model that is not a folder on the page\'s own origin says so and is never fetched', async () => {
  const asked = [];
  const note = (r) => asked.push(r.url());
  env.context.on('request', note);
  for (const hostile of ['//evil.example/models/x/', 'https://evil.example/models/x/', '../models/class-gpt2/', 'models/../../etc/']) {
    const page = await env.context.newPage();
    await page.goto(env.base + '?model=bundled' + link(hostile));
    await page.waitForSelector('[data-testid="error"]');
    assert.match(await page.textContent('[data-testid="error"]'), /not the bundled model, a hub repo id \(owner\/name\) or a model folder beside the page/);
    await modelReady(page);
    await page.close();
  }
  env.context.off('request', note);
  assert.deepEqual(asked.filter((u) => /evil\.example|\/etc\//.test(u)), []);
});

test('Change model lists the folders the site\'s models/index.json names, with class and size; one too large cannot be picked', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.click('.model-choice summary');
  await page.waitForSelector('[data-testid="site-model"]');
  const rows = await page.$$eval('[data-testid="site-model"]', (els) => els.map((e) => [e.dataset.folder, e.querySelector('[data-testid="site-model-facts"]').textContent, e.querySelector('button').disabled]));
  assert.deepEqual(rows.map(([f]) => f), ['models/class-gpt2/', 'models/huge-gpt2/'], 'the bundled folder is not listed twice');
  assert.match(rows[0][1], /^GPT2LMHeadModel · 14\.5 MB download · needs about \d+(\.\d)? MB of memory$/);
  assert.equal(rows[0][2], false);
  assert.equal(rows[1][2], true, 'past what a tab can address');
  assert.match(await page.textContent('[data-folder="models/huge-gpt2/"]'), /too large for a browser tab/);
  await page.click('[data-folder="models/class-gpt2/"] [data-testid="pick-site-model"]');
  await modelReady(page);
  assert.match(await page.textContent('[data-testid="model-status"]'), /models\/class-gpt2\/ \(hosted with this page\)/);
  assert.equal(await page.textContent('[data-folder="models/class-gpt2/"] button'), 'In use');
  await page.close();
});
