// A hub repo of llama.cpp files, as unsloth's and QuantFactory's GGUF repos
// are laid out: one .gguf per quantization and no config.json. The page lists
// them from the hub's tree API with their sizes, the user chooses one (or a
// link names it as llama.cpp's -hf does, `owner/name:Q4_K_M`), and only that
// file downloads. The files are the fixtures llama.cpp's own converter and
// quantizer wrote (tests/reference/make_gguf_fixtures.py).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { start, modelReady, runAll, laneTexts, ROOT } from './harness.mjs';
import { startHub, HUB_ARGS, CDN } from './hub_server.mjs';

const GGUF = join(ROOT, 'tests', 'fixtures', 'gguf');
const REPO = 'class/tiny-GGUF';
const FILES = {
  'README.md': Buffer.from('# tiny\n'),
  'tiny-Q8_0.gguf': readFileSync(join(GGUF, 'gpt2-q8_0.gguf')),
  'tiny-Q4_K_M.gguf': readFileSync(join(GGUF, 'qwen2-q4_k_m.gguf')),
  // A type without kernels here: listed, not offered.
  'tiny-IQ4_XS.gguf': Buffer.alloc(2048),
  // gguf-split's parts are not single models.
  'tiny-F16-00001-of-00002.gguf': Buffer.alloc(1024),
  'tiny-F16-00002-of-00002.gguf': Buffer.alloc(1024),
};
// `decode --model tests/fixtures/gguf/<file> --prompt 'In the beginning'
// --config '{"max_new_tokens": 5}'` writes these natively.
const Q8_0_TEXT = / granting boothProf Reconetter$/;
const Q4_K_M_TEXT = / fractions kernel Garfield accommodate exponential$/;
let hub, env;

before(async () => {
  hub = await startHub({ [REPO]: FILES, 'class/no-default-GGUF': { 'a-Q8_0.gguf': FILES['tiny-Q8_0.gguf'], 'a-Q5_K_M.gguf': Buffer.alloc(4096) } });
  env = await start({ args: HUB_ARGS });
});
after(async () => { await env?.close(); await hub?.close(); });

const link = (model) => '#run=1.' + deflateRawSync(Buffer.from(JSON.stringify({ prompt: 'In the beginning', lanes: [{ max_new_tokens: 5 }], model }))).toString('base64url');
const ggufGets = (repo) => hub.log.filter((e) => e.host === CDN && e.repo === repo && e.method === 'GET' && e.file.endsWith('.gguf')).map((e) => e.file);
const files = (page) => page.$$eval('[data-testid="gguf-file"]', (ls) => ls.map((l) => ({
  name: l.dataset.name, runs: l.dataset.runs, checked: l.querySelector('input').checked, size: l.querySelector('[data-testid="gguf-size"]').textContent,
})));

test('a typed GGUF repo lists its files with sizes, takes llama.cpp\'s Q4_K_M first, and downloads only the file chosen', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.click('.model-choice summary');
  await page.fill('[aria-label="model hub repo"]', REPO);
  await page.click('text=Load from the model hub');
  await page.waitForSelector('[data-testid="gguf-file"]', { timeout: 60_000 });
  assert.deepEqual(await files(page), [
    { name: 'tiny-IQ4_XS.gguf', runs: 'false', checked: false, size: '2 kB' },
    { name: 'tiny-Q4_K_M.gguf', runs: 'true', checked: true, size: '4.6 MB' },
    { name: 'tiny-Q8_0.gguf', runs: 'true', checked: false, size: '3.5 MB' },
  ]);
  assert.ok(await page.$eval('[data-name="tiny-IQ4_XS.gguf"] input', (i) => i.disabled), 'an i-quant cannot be chosen');
  assert.match(await page.textContent('[data-testid="gguf-files"]'), /2 parts of split files are not listed/);
  assert.match(await page.textContent('[data-testid="download-size"]'), /4\.6 MB to download/);
  await page.click('[data-name="tiny-Q8_0.gguf"] input');
  assert.match(await page.textContent('[data-testid="download-size"]'), /3\.5 MB to download/);
  assert.match(await page.textContent('[data-testid="confirm-load"]'), /class\/tiny-GGUF:Q8_0/);
  assert.deepEqual(ggufGets(REPO), [], 'listed, nothing downloaded');
  await page.click('[data-testid="confirm-load"]');
  await modelReady(page);
  assert.match(await page.textContent('[data-testid="model-status"]'), /class\/tiny-GGUF:Q8_0 .*GGUF Q8_0/s);
  assert.deepEqual(ggufGets(REPO), ['tiny-Q8_0.gguf']);
  // The share link names the file as llama.cpp's -hf takes it.
  await page.click('[data-testid="share"]');
  const shared = new URL(await page.inputValue('[data-testid="share-link"]'));
  const state = JSON.parse(inflateRawSync(Buffer.from(shared.hash.slice('#run=1.'.length), 'base64url')));
  assert.equal(state.model, `${REPO}:Q8_0`);
  await page.close();
});

test('a link naming a quant tag measures that file, and the run writes what decode writes on the same file', async () => {
  const page = await env.context.newPage();
  await page.goto(env.base + '?model=bundled' + link(`${REPO}:q4_k_m`));
  await page.waitForFunction(() => /to download|cache/.test(document.querySelector('[data-testid="download-size"]')?.textContent || ''), null, { timeout: 60_000 });
  assert.equal((await files(page)).find((f) => f.checked)?.name, 'tiny-Q4_K_M.gguf');
  await page.click('[data-testid="confirm-load"]');
  await modelReady(page);
  assert.match(await page.textContent('[data-testid="model-status"]'), /GGUF Q4_K_M/);
  await runAll(page);
  assert.match((await laneTexts(page))[0], Q4_K_M_TEXT);
  await page.close();
});

test('a link naming the file itself opens it from the cache with no second download', async () => {
  const before = ggufGets(REPO).filter((f) => f === 'tiny-Q8_0.gguf').length;
  const page = await env.context.newPage();
  await page.goto(env.base + '?model=bundled' + link(`${REPO}:tiny-Q8_0.gguf`));
  await page.waitForFunction(() => /cache/.test(document.querySelector('[data-testid="download-size"]')?.textContent || ''), null, { timeout: 60_000 });
  assert.ok((await files(page)).find((f) => f.name === 'tiny-Q8_0.gguf').checked);
  assert.match(await page.textContent('[data-name="tiny-Q8_0.gguf"]'), /in this browser/);
  await page.click('[data-testid="confirm-load"]');
  await modelReady(page);
  await runAll(page);
  assert.match((await laneTexts(page))[0], Q8_0_TEXT);
  assert.equal(ggufGets(REPO).filter((f) => f === 'tiny-Q8_0.gguf').length, before, 'read from the cache');
  await page.close();
});

test('a tag the repo lacks, or a repo without Q4_K_M, waits for a choice instead of downloading a guess', async () => {
  const page = await env.context.newPage();
  await page.goto(env.base + '?model=bundled' + link(`${REPO}:Q6_K`));
  await page.waitForSelector('[data-testid="gguf-file"]', { timeout: 60_000 });
  assert.equal((await files(page)).filter((f) => f.checked).length, 0);
  assert.ok(await page.$eval('[data-testid="confirm-load"]', (b) => b.disabled));
  assert.match(await page.textContent('[data-testid="download-size"]'), /Choose a file/);
  await page.goto(env.base + '?model=bundled' + link('class/no-default-GGUF'));
  await page.waitForSelector('[data-testid="gguf-file"]', { timeout: 60_000 });
  assert.ok(await page.$eval('[data-testid="confirm-load"]', (b) => b.disabled));
  assert.deepEqual(ggufGets('class/no-default-GGUF'), []);
  await page.close();
});

test('?model= with a GGUF repo loads llama.cpp\'s default file at once, as `llama-server -hf` would', async () => {
  const page = await env.open(`?model=${REPO}`);
  await modelReady(page);
  assert.match(await page.textContent('[data-testid="model-status"]'), /GGUF Q4_K_M/);
  await page.close();
});
