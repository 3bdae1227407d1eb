// The model hub as it really behaves (hub_server.mjs: real TLS, 302 to a CDN
// on *.hf.co, CORS, etags, Range), under the project's own cross-origin
// isolated server so the threaded worker's cross-origin fetches are the ones
// exercised: a download cut off at 60 % resumes where it stopped, a busy hub
// is retried with a countdown on the page, repos laid out as teachers find
// them load (vocab.json + merges.txt, sharded weights), and a repo that
// cannot load says why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, modelReady, runAll, laneTexts, setKnob, ROOT } from './harness.mjs';
import { startHub, HUB_ARGS, CDN, shardSafetensors, vocabAndMerges } from './hub_server.mjs';

const dir = join(ROOT, 'dist', 'models', 'kjv-gpt2');
const FILES = Object.fromEntries(['config.json', 'model.safetensors', 'tokenizer.json'].map((f) => [f, readFileSync(join(dir, f))]));
const { 'tokenizer.json': tokenizer, 'model.safetensors': weights, ...config } = FILES;

const SHARDS = shardSafetensors(weights);
// distilgpt2's repo as the hub has it, generation_config.json included.
const DISTILGPT2 = { ...FILES, 'generation_config.json': Buffer.from(JSON.stringify({ _from_model_config: true, bos_token_id: 50256, eos_token_id: 50256, transformers_version: '4.26.0.dev0' })) };
// A Qwen2 checkpoint (q/k/v biases, one key/value head, its own head, BF16)
// as the hub lays Qwen2.5-Instruct out, with an Instruct-style
// generation_config.json; HF's greedy text on it from the fixtures.
const FIXTURES = join(ROOT, 'tests', 'fixtures');
const QWEN2 = {
  'config.json': readFileSync(join(FIXTURES, 'models', 'tiny-qwen2', 'config.json')),
  'model.safetensors': readFileSync(join(FIXTURES, 'models', 'tiny-qwen2', 'model.safetensors')),
  'tokenizer.json': readFileSync(join(FIXTURES, 'models', 'tokenizer.json')),
  'generation_config.json': Buffer.from(JSON.stringify({ bos_token_id: 50256, do_sample: true, eos_token_id: [50256], repetition_penalty: 1.1, temperature: 0.7, top_k: 20, top_p: 0.8, transformers_version: '4.37.0' })),
};
const QWEN2_HF = JSON.parse(readFileSync(join(FIXTURES, 'hf', 'tiny-qwen2.json')));
let hub, env, bundledTexts;
before(async () => {
  hub = await startHub({
    'distilbert/distilgpt2': DISTILGPT2,
    'teacher/old-layout-gpt2': { ...config, 'model.safetensors': weights, ...vocabAndMerges(tokenizer) },
    'teacher/sharded-gpt2': { ...config, 'tokenizer.json': tokenizer, ...SHARDS },
    'teacher/pickle-only-gpt2': { ...config, 'tokenizer.json': tokenizer, 'pytorch_model.bin': Buffer.alloc(1000) },
    'teacher/busy-gpt2': FILES,
    'teacher/busy-zh-gpt2': FILES,
    'teacher/two-tabs-gpt2': FILES,
    'teacher/full-disk-gpt2': FILES,
    'teacher/no-resume-gpt2': FILES,
    'teacher/linked-gpt2': FILES,
    'teacher/typed-gpt2': FILES,
    'teacher/huge-gpt2': FILES,
    'teacher/linked-sharded-gpt2': { ...config, 'tokenizer.json': tokenizer, ...SHARDS },
    'teacher/tiny-qwen2-instruct': QWEN2,
    // The picker's repo ids, served the tiny checkpoints of their families.
    'Qwen/Qwen2.5-0.5B-Instruct': QWEN2,
  }, { claimed: { 'teacher/huge-gpt2/model.safetensors': 4_500_000_000 } });
  env = await start({ args: HUB_ARGS });
  // What the same weights and tokenizer write when served with the page.
  const page = await env.open('?model=bundled');
  await modelReady(page);
  bundledTexts = await shortRun(page);
  await page.close();
});
after(async () => { await env?.close(); await hub?.close(); });

async function shortRun(page) {
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 8);
  await runAll(page);
  return laneTexts(page);
}

const status = (page) => page.textContent('[data-testid="model-status"]');

test('the default hub model comes through the CDN redirect; a download cut off at 60 % resumes from there, and the next visit uses the cache', async () => {
  hub.fault('distilbert/distilgpt2', 'model.safetensors', { cutAt: 0.6 });
  const start = hub.log.length;
  const page = await env.open('');
  await modelReady(page);
  assert.match(await status(page), /distilbert\/distilgpt2/);
  assert.match(await page.textContent('[data-testid="threads"]'), /^[2-4] threads$/, 'an isolated page, the threaded worker');
  const log = hub.log.slice(start);
  const resolves = log.filter((e) => e.host === 'huggingface.co');
  // distilgpt2 has no tokenizer_config.json (no chat template): its 404 is the hub's answer, not a fault.
  assert.ok(resolves.every((e) => e.status === 302 || (e.status === 404 && e.path.endsWith('/tokenizer_config.json'))), JSON.stringify(resolves));
  const cdn = log.filter((e) => e.host === CDN && e.method === 'GET');
  const size = weights.length;
  const weightGets = cdn.filter((e) => e.file === 'model.safetensors');
  assert.equal(weightGets.length, 2, `one cut-off download and one resumption: ${JSON.stringify(cdn)}`);
  assert.equal(weightGets[0].range, null);
  // Resumed from the bytes the page held: all that was sent, less what the
  // browser's stream had queued unread when the cut errored it.
  const cut = Math.floor(size * 0.6);
  const from = Number(/^bytes=(\d+)-$/.exec(weightGets[1].range ?? '')?.[1]);
  assert.ok(from > 0 && from <= cut, `resumed from the bytes it held, not from the start: ${weightGets[1].range} (cut at ${cut})`);
  assert.equal(weightGets[1].status, 206);
  assert.equal(weightGets[1].bytes, size - from, 'the resumption sent only the rest');
  const served = cdn.reduce((n, e) => n + e.bytes, 0);
  const all = Object.values(DISTILGPT2).reduce((n, b) => n + b.length, 0);
  assert.equal(served, all + (cut - from), 'no byte crossed the network twice but those the browser dropped at the cut');
  assert.deepEqual(log.filter((e) => e.method === 'OPTIONS'), [], 'no preflight: the Range request is CORS-safelisted');
  assert.deepEqual(await shortRun(page), bundledTexts, 'the resumed file is the whole file');
  await page.close();

  // A second tab: everything from the cache, nothing from the network.
  const before = hub.log.length;
  const again = await env.open('');
  await modelReady(again);
  assert.deepEqual(hub.log.slice(before), [], 'the cached download is shared by the next tab');
  await again.close();
  assert.deepEqual(env.errors, []);
});

test('a server that cannot resume says so and downloads the file again whole', async () => {
  hub.fault('teacher/no-resume-gpt2', 'model.safetensors', { cutAt: 0.6 }, { ignoreRange: true });
  const page = await env.open('?model=teacher/no-resume-gpt2');
  await modelReady(page);
  assert.match(await page.textContent('[data-testid="model-notice"]'), /cannot resume downloads .* model\.safetensors downloads again from the start/);
  const gets = hub.log.filter((e) => e.host === CDN && e.repo === 'teacher/no-resume-gpt2' && e.file === 'model.safetensors');
  assert.deepEqual(gets.map((e) => [e.status, e.bytes]), [[200, Math.floor(weights.length * 0.6)], [200, weights.length]]);
  assert.ok(gets[1].range, 'it was asked to resume');
  assert.deepEqual(await shortRun(page), bundledTexts);
  await page.close();
});

test('a busy hub (503, then 429 with Retry-After) is retried with a visible countdown, and the model loads', async () => {
  hub.fault('teacher/busy-gpt2', 'config.json', { status: 503 }, { status: 429, retryAfter: 2 });
  const page = await env.open('?model=teacher/busy-gpt2');
  await page.waitForSelector('[data-testid="retry"]', { timeout: 30_000 });
  const seen = new Set();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const t = await page.evaluate(() => document.querySelector('[data-testid="retry"]')?.textContent);
    if (t) seen.add(t.trim());
    if (await page.$('[data-testid="model-status"][data-state="ready"]')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const texts = [...seen];
  assert.ok(texts.some((t) => /the hub answered 503.*trying again in 1 s \(try 2 of 5\)/.test(t)), texts.join(' | '));
  assert.ok(texts.some((t) => /the hub answered 429.*trying again in 2 s \(try 3 of 5\)/.test(t)), texts.join(' | '));
  assert.ok(texts.some((t) => /in 1 s \(try 3 of 5\)/.test(t)), `the countdown ticks: ${texts.join(' | ')}`);
  await modelReady(page);
  assert.match(await status(page), /teacher\/busy-gpt2/);
  assert.equal(await page.$('[data-testid="retry"]'), null, 'the countdown is gone once loaded');
  await page.close();
});

test('in Chinese, a busy hub\'s countdown and a gated repo\'s refusal are said in Chinese', async () => {
  hub.fault('teacher/busy-zh-gpt2', 'config.json', { status: 503 });
  const page = await env.open('?model=teacher/busy-zh-gpt2&lang=zh-CN');
  await page.waitForSelector('[data-testid="retry"]', { timeout: 30_000 });
  assert.match(await page.textContent('[data-testid="retry"]'), /模型仓库网站返回 503.*；1 秒后重试（第 2 次，共 5 次）/);
  await modelReady(page);
  await page.close();
  const gated = await env.open('?model=meta-llama/gated-model&lang=zh-CN');
  await gated.waitForSelector('[data-testid="model-status"][data-state="failed"]', { timeout: 60_000 });
  assert.match(await status(gated), /无法加载模型.*返回 HTTP 401：这个仓库是私有的、需要申请访问，或不存在/);
  await gated.close();
});

test('a repo with vocab.json + merges.txt instead of tokenizer.json loads the same tokenizer', async () => {
  const page = await env.open('?model=teacher/old-layout-gpt2');
  await modelReady(page);
  assert.match(await status(page), /teacher\/old-layout-gpt2/);
  assert.deepEqual(await shortRun(page), bundledTexts);
  const asked = hub.log.filter((e) => e.host === 'huggingface.co' && e.path.startsWith('/teacher/old-layout-gpt2/')).map((e) => `${e.path.split('/').pop()} ${e.status}`);
  assert.deepEqual(asked, ['config.json 302', 'tokenizer.json 404', 'vocab.json 302', 'merges.txt 302', 'generation_config.json 404', 'tokenizer_config.json 404', 'model.safetensors 302']);
  await page.close();
});

test('a Qwen2 repo loads from the hub, names its architecture and grouped heads, shows its generation_config.json, and writes what HF writes', async () => {
  const page = await env.open('?model=teacher/tiny-qwen2-instruct');
  await modelReady(page);
  assert.equal(await page.textContent('[data-testid="architecture"]'), 'Qwen2ForCausalLM');
  assert.match(await status(page), /4 heads \(1 key\/value\)/);
  assert.match(await page.textContent('[data-testid="model-defaults"]'), /do_sample true · repetition_penalty 1\.1 · temperature 0\.7 · top_k 20 · top_p 0\.8/);
  const asked = hub.log.filter((e) => e.host === 'huggingface.co' && e.path.startsWith('/teacher/tiny-qwen2-instruct/')).map((e) => e.path.split('/').pop());
  assert.ok(asked.includes('generation_config.json'), asked.join(' '));
  const greedy = QWEN2_HF.runs.find((r) => r.name === 'programming/greedy');
  await page.fill('[data-testid="prompt"]', 'The best way to learn programming is');
  // Lanes start from the model's file, as generate() does: the greedy lane samples.
  const starts = (l) => page.$eval(`[data-testid="lane-${l}"] [data-testid="starts-from"]`, (e) => ({ from: e.dataset.from, mode: e.dataset.mode, text: e.textContent }));
  const lane0 = await starts(0);
  assert.deepEqual([lane0.from, lane0.mode], ['model', 'sample'], lane0.text);
  assert.match(lane0.text, /temperature 0\.7/);
  assert.match(lane0.text, /from the library's defaults: greedy/);
  // Untick: the library's defaults alone, greedy, HF's text.
  await page.click('[data-testid="lane-0"] [data-testid="starts-from"] input');
  assert.deepEqual(Object.values(await starts(0)).slice(0, 2), ['library', 'greedy']);
  await setKnob(page, 0, 'max_new_tokens', greedy.sequences[0].length);
  for (let l = 1; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 4);
  await runAll(page);
  const [first] = await laneTexts(page);
  const modes = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => e.textContent.split(' · ')[0]));
  assert.equal(modes[0], 'greedy');
  // Each lane ran as its line said it would, before the run.
  for (let l = 1; l < 4; l++) assert.equal(modes[l], (await starts(l)).mode, `lane ${l + 1}`);
  assert.ok(modes.includes('sample'), modes.join(' '));
  assert.ok(first.replace(/\s+/g, ' ').endsWith(greedy.text.replace(/\s+/g, ' ').trimEnd()), `${JSON.stringify(first)} vs HF ${JSON.stringify(greedy.text)}`);
  await page.close();
});

test('the model picker lists each family with its size and memory before a download, and loads the one picked from the hub', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.click('.model-choice summary');
  const rows = await page.$$eval('[data-testid="catalog-model"]', (els) => els.map((e) => ({
    repo: e.dataset.repo,
    facts: e.querySelector('[data-testid="catalog-facts"]').textContent,
    instruct: !!e.querySelector('[data-testid="instruct"]'),
  })));
  assert.equal(rows[0].repo, 'distilbert/distilgpt2', 'the default first');
  assert.deepEqual(rows.map((r) => r.repo).filter((r) => r.includes('Instruct')), ['HuggingFaceTB/SmolLM2-135M-Instruct', 'HuggingFaceTB/SmolLM2-360M-Instruct', 'Qwen/Qwen2.5-0.5B-Instruct']);
  assert.deepEqual(rows.filter((r) => r.instruct).map((r) => r.repo), rows.map((r) => r.repo).filter((r) => r.endsWith('-Instruct')));
  const qwen = rows.find((r) => r.repo === 'Qwen/Qwen2.5-0.5B-Instruct');
  assert.match(qwen.facts, /Qwen2ForCausalLM · 494 M parameters · 988\.1 MB download \(BF16\) · needs about 13\d\d\.\d MB of memory/);
  assert.match(rows[0].facts, /GPT2LMHeadModel · 82 M parameters · 352\.8 MB download \(F32\)/);
  assert.ok(rows.some((r) => /LlamaForCausalLM · 135 M parameters/.test(r.facts)), JSON.stringify(rows));
  const before = hub.log.length;
  await page.click('[data-testid="catalog-model"][data-repo="Qwen/Qwen2.5-0.5B-Instruct"] [data-testid="pick-model"]');
  await page.waitForFunction(() => /Qwen\/Qwen2\.5-0\.5B-Instruct/.test(document.querySelector('[data-testid="model-status"][data-state="ready"]')?.textContent || ''), null, { timeout: 60_000 });
  assert.equal(await page.textContent('[data-testid="architecture"]'), 'Qwen2ForCausalLM');
  const asked = hub.log.slice(before).filter((e) => e.host === 'huggingface.co').map((e) => e.path);
  assert.ok(asked.includes('/Qwen/Qwen2.5-0.5B-Instruct/resolve/main/model.safetensors'), asked.join(' '));
  const picked = '[data-testid="catalog-model"][data-repo="Qwen/Qwen2.5-0.5B-Instruct"] [data-testid="pick-model"]';
  assert.equal(await page.textContent(picked), 'In use');
  assert.equal(await page.isDisabled(picked), true);
  await setKnob(page, 0, 'max_new_tokens', 4);
  for (let l = 1; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 2);
  await runAll(page);
  assert.ok((await laneTexts(page)).every((t) => t.length > 0));

  // A repo typed into the box: its size first, nothing downloaded until asked; kept out, the model in use stays.
  const typedGets = () => hub.log.filter((e) => e.host === CDN && e.repo === 'teacher/typed-gpt2' && e.method === 'GET');
  await page.fill('[aria-label="model hub repo"]', 'teacher/typed-gpt2');
  await page.click('text=Load from the model hub');
  await page.waitForFunction(() => /to download/.test(document.querySelector('[data-testid="download-size"]')?.textContent || ''), null, { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid="confirm-model"]'), /^`teacher\/typed-gpt2` from the model hub: nothing has been downloaded yet\. Its weights are \d+\.\d MB to download\./);
  assert.deepEqual(typedGets().map((e) => e.file), ['config.json'], 'measured with HEAD requests and its small config.json only');
  await page.click('[data-testid="confirm-keep"]');
  await modelReady(page);
  assert.match(await page.textContent('[data-testid="model-status"]'), /Qwen\/Qwen2\.5-0\.5B-Instruct/);
  await runAll(page);
  await page.fill('[aria-label="model hub repo"]', 'teacher/typed-gpt2');
  await page.click('text=Load from the model hub');
  await page.click('[data-testid="confirm-load"]');
  await page.waitForFunction(() => /teacher\/typed-gpt2/.test(document.querySelector('[data-testid="model-status"][data-state="ready"]')?.textContent || ''), null, { timeout: 60_000 });
  assert.ok(typedGets().length > 0);
  await page.close();
});

test('sharded weights (model.safetensors.index.json) load with one progress bar over the shards', async () => {
  hub.fault('teacher/sharded-gpt2', 'model-00002-of-00002.safetensors', { paceMs: 1500 });
  const page = await env.open('?model=teacher/sharded-gpt2');
  await page.waitForFunction(() => /shard 2 of 2/.test(document.querySelector('[data-testid="model-status"]')?.textContent || ''), null, { timeout: 60_000 });
  const bar = await page.$eval('[data-testid="model-status"] progress', (p) => Number(p.value));
  const [first, second] = ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'].map((f) => SHARDS[f].length);
  const floor = (100 * first) / (first + second) - 0.5;
  assert.ok(bar >= floor && bar < 100, `the bar starts shard 2 where shard 1 ended (${bar} % ≥ ${floor} %)`);
  await modelReady(page);
  assert.match(await status(page), /teacher\/sharded-gpt2/);
  assert.deepEqual(await shortRun(page), bundledTexts);
  await page.close();
});

test('a repo with only pytorch_model.bin, and a gated or missing repo, are refused with what to do', async () => {
  for (const [repo, why] of [
    ['teacher/pickle-only-gpt2', /only pytorch_model\.bin.*save_pretrained.*safe_serialization=True/s],
    ['meta-llama/gated-model', /HTTP 401: the repo is private, gated or does not exist/],
  ]) {
    const page = await env.open(`?model=${repo}`);
    await page.waitForSelector('[data-testid="model-status"][data-state="failed"]', { timeout: 60_000 });
    assert.match(await status(page), why);
    await page.close();
  }
  assert.deepEqual(env.errors, []);
});

/// A page with `script` run before the page's own (navigator overrides, spies).
async function openWith(query, script) {
  const page = await env.context.newPage();
  page.on('pageerror', (e) => env.errors.push(String(e)));
  await page.addInitScript(script);
  await page.goto(env.base + query);
  return page;
}

test('two tabs opening the same hub model together download it once', async () => {
  hub.fault('teacher/two-tabs-gpt2', 'model.safetensors', { paceMs: 2000 });
  const [a, b] = await Promise.all([env.open('?model=teacher/two-tabs-gpt2'), env.open('?model=teacher/two-tabs-gpt2')]);
  // The tab that waits says why its bar stands still.
  const says = (p) => p.waitForFunction(() => /another tab is downloading model\.safetensors/.test(document.querySelector('[data-testid="retry"]')?.textContent || ''), null, { timeout: 30_000 });
  await Promise.any([says(a), says(b)]);
  await Promise.all([modelReady(a), modelReady(b)]);
  const gets = hub.log.filter((e) => e.host === CDN && e.method === 'GET' && e.repo === 'teacher/two-tabs-gpt2');
  assert.deepEqual(gets.map((e) => e.file).sort(), ['config.json', 'model.safetensors', 'tokenizer.json'], 'each file crossed the network once');
  await a.close();
  await b.close();
});

test('cached models are listed with their sizes and can be forgotten; the browser is asked to keep them', async () => {
  const page = await openWith('?model=teacher/two-tabs-gpt2', () => {
    window.persistAsked = 0;
    const persist = StorageManager.prototype.persist;
    StorageManager.prototype.persist = function () { window.persistAsked++; return persist.call(this); };
  });
  await modelReady(page);
  await page.waitForFunction(() => window.persistAsked === 1);
  await page.click('.model-choice summary');
  await page.click('[data-testid="cached-models"] summary');
  await page.waitForSelector('[data-testid="cached-model"][data-name="teacher/two-tabs-gpt2"]');
  const rows = await page.$$eval('[data-testid="cached-model"]', (els) => els.map((e) => ({ name: e.dataset.name, bytes: Number(e.dataset.bytes), text: e.textContent })));
  const row = rows.find((r) => r.name === 'teacher/two-tabs-gpt2');
  const size = Object.values(FILES).reduce((n, b) => n + b.length, 0);
  assert.equal(row.bytes, size, 'the three files, byte for byte');
  assert.match(row.text, /^teacher\/two-tabs-gpt2 · \d+\.\d MB in 3 files · in use/);
  assert.ok(rows.some((r) => r.name === 'distilbert/distilgpt2'), JSON.stringify(rows));
  await page.click('[aria-label="Forget teacher/two-tabs-gpt2"]');
  await page.waitForSelector('[data-testid="cached-model"][data-name="teacher/two-tabs-gpt2"]', { state: 'detached' });
  const keys = await page.evaluate(async () => (await (await caches.open('ntl-models-v1')).keys()).map((r) => r.url));
  assert.ok(!keys.some((k) => k.includes('two-tabs')), keys.join());
  assert.ok(keys.some((k) => k.includes('distilgpt2')), 'other models stay');
  // The model in use keeps running from memory.
  assert.deepEqual(await shortRun(page), bundledTexts);
  await page.close();
});

test('a full disk leaves the model running from memory with a notice', async () => {
  const page = await env.context.newPage();
  const cdp = await env.context.newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: env.base.replace(/\/$/, ''), quotaSize: 4 << 20 });
  await page.goto(env.base + '?model=teacher/full-disk-gpt2');
  await modelReady(page);
  assert.match(await page.textContent('[data-testid="model-notice"]'), /storage for this site is full, so the model runs from memory and will download again/);
  assert.deepEqual(await shortRun(page), bundledTexts);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: env.base.replace(/\/$/, '') });
  await page.close();
});

test('weights past what a tab\'s WebAssembly can address are refused before a byte downloads, on any device', async () => {
  const page = await env.open();
  await modelReady(page);
  await page.click('.model-choice summary');
  await page.fill('[aria-label="model hub repo"]', 'teacher/huge-gpt2');
  await page.click('text=Load from the model hub');
  await page.waitForSelector('[data-testid="memory-warning"]', { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid="memory-warning"]'), /^These weights are 4500 MB and need about 4\.\d GB of WebAssembly memory to run with four lanes' cache of \d+ tokens: more than the 4 GB a browser tab's WebAssembly can address/);
  assert.equal(await page.isDisabled('[data-testid="confirm-load"]'), true);
  await page.click('[data-testid="confirm-keep"]');
  await modelReady(page);
  assert.deepEqual(hub.log.filter((e) => e.repo === 'teacher/huge-gpt2' && e.method === 'GET').map((e) => e.file), ['config.json'], 'nothing downloaded but its small config.json');
  await page.close();
});

test('weights too large for the device warn before the bytes arrive', async () => {
  const page = await openWith('?model=teacher/old-layout-gpt2', () => {
    Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 0.03 });
  });
  await page.waitForSelector('[data-testid="memory-warning"]', { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid="memory-warning"]'), /^These weights are \d+ MB and need about \d+ MB of memory to run, the download included; this device reports 0\.03 GB in all/);
  await modelReady(page);
  await page.close();
});

test('a link naming a hub model shows its size and a memory warning before any weights download; a cached one says so', async () => {
  const link = (model) => '#run=1.' + deflateRawSync(Buffer.from(JSON.stringify({ prompt: 'In the beginning', lanes: [{ max_new_tokens: 5 }], model }))).toString('base64url');
  const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
  const size = async (page, re) => {
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('[data-testid="download-size"]')?.textContent || ''), re.source, { timeout: 60_000 });
    return (await page.textContent('[data-testid="download-size"]')).trim();
  };
  const weightGets = (repo) => hub.log.filter((e) => e.host === CDN && e.repo === repo && /safetensors$/.test(e.file) && e.method === 'GET');

  const page = await openWith(link('teacher/linked-gpt2'), () => {
    Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 0.03 });
  });
  assert.equal(await size(page, /to download/), `Its weights are ${mb(weights.length)} to download.`);
  // The estimate holds the cache its config.json sizes, read before the weights.
  assert.match(await page.textContent('[data-testid="memory-warning"]'), /^These weights are \d+ MB and need about \d+ MB of memory to run with four lanes' cache of \d+ tokens, the download included/);
  assert.deepEqual(weightGets('teacher/linked-gpt2'), [], 'measured with HEAD requests only');
  assert.ok(hub.log.some((e) => e.host === CDN && e.repo === 'teacher/linked-gpt2' && e.method === 'HEAD'), 'through the redirect');
  await page.click('[data-testid="confirm-load"]');
  await modelReady(page);
  await page.close();

  const again = await env.open(link('teacher/linked-gpt2'));
  assert.equal(await size(again, /cache/), `Its weights (${mb(weights.length)}) are already in this browser's cache: nothing to download.`);
  await again.close();

  // Shards: every shard's size, added up; the index read, no shard fetched.
  const shardBytes = Object.entries(SHARDS).filter(([n]) => n.endsWith('.safetensors')).reduce((a, [, b]) => a + b.length, 0);
  const sharded = await env.open(link('teacher/linked-sharded-gpt2'));
  assert.equal(await size(sharded, /to download/), `Its weights are ${mb(shardBytes)} to download.`);
  assert.deepEqual(weightGets('teacher/linked-sharded-gpt2'), []);
  assert.equal(await sharded.locator('[data-testid="memory-warning"]').count(), 0, 'a device with memory enough is not warned');
  await sharded.close();
  assert.deepEqual(env.errors, []);
});

test('a dropped repo folder in the older, sharded layout loads from local files', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'ntl-picked-'));
  const files = { ...config, ...vocabAndMerges(tokenizer), ...SHARDS, 'README.md': Buffer.from('# a fine-tune\n'), 'generation_config.json': Buffer.from('{}') };
  for (const [name, body] of Object.entries(files)) writeFileSync(join(folder, name), body);
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.click('.model-choice summary');
  await page.setInputFiles('[data-testid="model-files"]', Object.keys(files).map((f) => join(folder, f)));
  await page.waitForFunction(() => /local files/.test(document.querySelector('[data-testid="model-status"][data-state="ready"]')?.textContent || ''), null, { timeout: 60_000 });
  assert.match(await status(page), /config\.json, vocab\.json, merges\.txt, model-00001-of-00002\.safetensors, model-00002-of-00002\.safetensors/);
  assert.deepEqual(await shortRun(page), bundledTexts);
  // A pickle-only folder is told what to do.
  writeFileSync(join(folder, 'pytorch_model.bin'), Buffer.alloc(10));
  writeFileSync(join(folder, 'tokenizer.json'), tokenizer);
  await page.setInputFiles('[data-testid="model-files"]', ['config.json', 'tokenizer.json', 'pytorch_model.bin'].map((f) => join(folder, f)));
  await page.waitForSelector('[data-testid="model-status"][data-state="failed"]');
  assert.match(await status(page), /PyTorch pickle.*safe_serialization=True/);
  await page.close();
});
