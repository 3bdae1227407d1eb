// llama.cpp's files in the page: a model folder holding model.gguf (what a
// school hosts from a hub GGUF repo) and a .gguf the user picks, with the
// tokenizer.json beside it or alone (the file's own tokenizer). The files are the fixtures llama.cpp's own
// converter and quantizer wrote (tests/reference/make_gguf_fixtures.py).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { start, modelReady, runAll, laneTexts, ROOT } from './harness.mjs';
import { indexModels } from '../../scripts/index-models.mjs';

const DIST = join(ROOT, 'dist');
const GGUF = join(ROOT, 'tests', 'fixtures', 'gguf');
const TOKENIZER = join(ROOT, 'tests', 'fixtures', 'models', 'tokenizer.json');
const requests = [];
let site, env;

before(async () => {
  site = mkdtempSync(join(tmpdir(), 'ntl-gguf-site-'));
  for (const name of readdirSync(DIST)) if (name !== 'models') symlinkSync(join(DIST, name), join(site, name));
  mkdirSync(join(site, 'models', 'class-gguf'), { recursive: true });
  symlinkSync(join(DIST, 'models', 'kjv-gpt2'), join(site, 'models', 'kjv-gpt2'));
  symlinkSync(join(GGUF, 'qwen2-q4_k_m.gguf'), join(site, 'models', 'class-gguf', 'model.gguf'));
  symlinkSync(TOKENIZER, join(site, 'models', 'class-gguf', 'tokenizer.json'));
  mkdirSync(join(site, 'models', 'gguf-alone'), { recursive: true });
  symlinkSync(join(GGUF, 'qwen2-q4_k_m.gguf'), join(site, 'models', 'gguf-alone', 'model.gguf'));
  indexModels(join(site, 'models'));
  env = await start({ dir: site, seen: (method, path) => requests.push({ method, path }) });
});
after(async () => {
  await env?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

const link = (model) => '#run=1.' + deflateRawSync(Buffer.from(JSON.stringify({ prompt: 'In the beginning', lanes: [{ max_new_tokens: 5 }], model }))).toString('base64url');

test('a folder holding model.gguf loads from a link after its size is shown, names its weight type, and writes what the native engine writes', async () => {
  const page = await env.context.newPage();
  await page.goto(env.base + '?model=bundled' + link('models/class-gguf/'));
  await page.waitForFunction(() => /to download|cache/.test(document.querySelector('[data-testid="download-size"]')?.textContent || ''), null, { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid="download-size"]'), /4\.6 MB/);
  assert.deepEqual(requests.filter((r) => r.method === 'GET' && r.path === '/models/class-gguf/model.gguf'), [], 'measured, not downloaded');
  await page.click('[data-testid="confirm-load"]');
  await modelReady(page);
  assert.match(await page.textContent('[data-testid="model-status"]'), /GGUF Q4_K_M/);
  await runAll(page);
  // `decode --model tests/fixtures/gguf/qwen2-q4_k_m.gguf --prompt 'In the beginning'
  // --config '{"max_new_tokens": 5}'` writes this natively.
  assert.match((await laneTexts(page))[0], / fractions kernel Garfield accommodate exponential$/);
  await page.close();
});

test('a folder holding only model.gguf tokenizes with the file\'s own tokenizer and writes the same text', async () => {
  const page = await env.context.newPage();
  await page.goto(env.base + '?model=bundled' + link('models/gguf-alone/'));
  await page.waitForSelector('[data-testid="confirm-load"]', { timeout: 60_000 });
  await page.click('[data-testid="confirm-load"]');
  await modelReady(page);
  await runAll(page);
  assert.match((await laneTexts(page))[0], / fractions kernel Garfield accommodate exponential$/);
  await page.close();
});

test('Change model lists the GGUF folder with the class its header names', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.click('.model-choice summary');
  await page.waitForSelector('[data-folder="models/class-gguf/"]');
  assert.match(await page.textContent('[data-folder="models/class-gguf/"] [data-testid="site-model-facts"]'), /^Qwen2ForCausalLM · 4\.6 MB download/);
  await page.close();
});

test('a .gguf picked alone loads with the tokenizer its metadata carries: the same prompt tokens and lanes as with tokenizer.json', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  const run = async (files) => {
    await page.click('.model-choice summary');
    await page.setInputFiles('[data-testid="model-files"]', files);
    await page.waitForFunction(() => /local files/.test(document.querySelector('[data-testid="model-status"][data-state="ready"]')?.textContent || ''), null, { timeout: 60_000 });
    await page.fill('[data-testid="prompt"]', 'In the beginning 1234');
    await runAll(page);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="prompt-token"]').length > 0);
    const chips = await page.$$eval('[data-testid="prompt-token"]', (cs) => cs.map((c) => c.querySelector('.piece').textContent));
    return { chips, texts: await laneTexts(page) };
  };
  const alone = await run([join(GGUF, 'qwen2-q4_k_m.gguf')]);
  const beside = await run([join(GGUF, 'qwen2-q4_k_m.gguf'), TOKENIZER]);
  assert.deepEqual(alone, beside);
  assert.equal(alone.chips.length, 5, JSON.stringify(alone.chips));
  await page.close();
});

test('a picked .gguf loads with its tokenizer.json and no config.json; two .gguf files are asked about', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.click('.model-choice summary');
  await page.setInputFiles('[data-testid="model-files"]', [join(GGUF, 'llama-q4_0.gguf'), TOKENIZER]);
  await page.waitForFunction(() => /local files/.test(document.querySelector('[data-testid="model-status"][data-state="ready"]')?.textContent || ''), null, { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid="model-status"]'), /GGUF Q4_0/);
  await runAll(page);
  assert.ok((await laneTexts(page))[0].trim().length > 0);
  await page.setInputFiles('[data-testid="model-files"]', [join(GGUF, 'llama-q4_0.gguf'), join(GGUF, 'gpt2-q8_0.gguf'), TOKENIZER]);
  await page.waitForSelector('[data-testid="model-status"][data-state="failed"]');
  assert.match(await page.textContent('[data-testid="model-status"]'), /pick one \.gguf file, not several \(llama-q4_0\.gguf, gpt2-q8_0\.gguf\)/);
  await page.close();
});
