// scripts/add-model.mjs against a stand-in hub on 127.0.0.1 (HF_ENDPOINT):
// the tree API, and /resolve/ answering with a redirect to the file as the
// hub's CDN does. What arrives must be the repo's bytes, laid out as the page
// reads a hosted folder, with the index naming it; a GGUF repo's file is
// picked by the page's own rule; a cut download or a bad name leaves nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addModel, AddModelError } from '../../scripts/add-model.mjs';
import { ROOT } from './harness.mjs';

const TINY = join(ROOT, 'tests/fixtures/models/tiny');
const GGUF = join(ROOT, 'tests/fixtures/gguf');
// Repo → { name in the repo: file on disk }.
const REPOS = {
  'test/tiny': Object.fromEntries(readdirSync(TINY).map((f) => [f, join(TINY, f)])),
  'test/tiny-GGUF': {
    'tiny.Q8_0.gguf': join(GGUF, 'gpt2-q8_0.gguf'),
    'tiny.Q4_0.gguf': join(GGUF, 'llama-q4_0.gguf'),
    'tiny.IQ4_XS.gguf': join(GGUF, 'gpt2-q8_0.gguf'),
    'tokenizer.json': join(GGUF, 'tokenizer.json'),
    'README.md': join(TINY, 'config.json'),
  },
  // A transformers repo whose weights arrive cut short.
  'test/cut': { ...Object.fromEntries(readdirSync(TINY).map((f) => [f, join(TINY, f)])) },
};

let server;
let endpoint;
before(async () => {
  server = createServer((req, res) => {
    const url = decodeURIComponent(req.url);
    const tree = url.match(/^\/api\/models\/(.+)\/tree\/main$/);
    if (tree) {
      const files = REPOS[tree[1]];
      if (!files) return res.writeHead(404).end();
      const listing = Object.entries(files).map(([path, disk]) => ({ type: 'file', oid: 'x', size: readFileSync(disk).length, path }));
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listing));
    }
    const resolve = url.match(/^\/(.+?\/.+?)\/resolve\/main\/(.+)$/);
    if (resolve) return res.writeHead(302, { location: `/cdn/${resolve[1]}/${resolve[2]}` }).end();
    const cdn = url.match(/^\/cdn\/(.+?\/.+?)\/(.+)$/);
    const disk = cdn && REPOS[cdn[1]]?.[cdn[2]];
    if (!disk) return res.writeHead(404).end();
    const bytes = readFileSync(disk);
    if (cdn[1] === 'test/cut' && cdn[2] === 'model.safetensors') {
      // Says the whole length, sends half, and hangs up.
      res.writeHead(200, { 'content-length': bytes.length });
      res.write(bytes.subarray(0, bytes.length >> 1));
      return setTimeout(() => res.destroy(), 50);
    }
    res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${server.address().port}`;
});
const made = [];
after(() => {
  server.close();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const quiet = () => {};
const models = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ntl-add-model-'));
  made.push(dir);
  return dir;
};
const index = (dir) => JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')).models;

test('a transformers repo arrives byte for byte as a hosted folder, and the index lists it with class and size', async () => {
  const into = models();
  const got = await addModel('test/tiny', { into, endpoint, log: quiet });
  assert.equal(got.folder, 'tiny');
  for (const f of ['config.json', 'tokenizer.json', 'model.safetensors', 'generation_config.json']) {
    if (!REPOS['test/tiny'][f]) continue;
    assert.deepEqual(readFileSync(join(into, 'tiny', f)), readFileSync(REPOS['test/tiny'][f]), f);
  }
  assert.ok(!readdirSync(join(into, 'tiny')).some((f) => f.endsWith('.part')));
  const [entry] = index(into);
  assert.equal(entry.folder, 'tiny');
  assert.equal(entry.architecture, 'GPT2LMHeadModel');
  assert.equal(entry.bytes, readFileSync(REPOS['test/tiny']['model.safetensors']).length);
});

test('a GGUF repo gives the file its quant tag names as model.gguf, with the repo\'s tokenizer, under the name given', async () => {
  const into = models();
  await addModel('test/tiny-GGUF:q4_0', { into, endpoint, as: 'tiny-llama-q4', log: quiet });
  const dir = join(into, 'tiny-llama-q4');
  assert.deepEqual(readdirSync(dir).sort(), ['model.gguf', 'tokenizer.json']);
  assert.deepEqual(readFileSync(join(dir, 'model.gguf')), readFileSync(join(GGUF, 'llama-q4_0.gguf')));
  const [entry] = index(into);
  assert.equal(entry.architecture, 'LlamaForCausalLM');
  assert.equal(entry.bytes, readFileSync(join(GGUF, 'llama-q4_0.gguf')).length);
});

test('a GGUF repo without the default Q4_K_M, a tag it lacks, or a type the page cannot run is refused with the files named, and leaves no folder', async () => {
  const into = models();
  const refuse = async (spec, pattern) => {
    await assert.rejects(addModel(spec, { into, endpoint, log: quiet }), (e) => e instanceof AddModelError && pattern.test(e.message));
    assert.ok(!existsSync(join(into, 'tiny-GGUF')));
  };
  await refuse('test/tiny-GGUF', /none is Q4_K_M; choose one: .*tiny\.Q4_0\.gguf.*tiny\.Q8_0\.gguf/);
  await refuse('test/tiny-GGUF:Q5_K_M', /no file in the repo is quantized as Q5_K_M/);
  await refuse('test/tiny-GGUF:IQ4_XS', /tiny\.IQ4_XS\.gguf is in a type the page cannot run/);
  await refuse('test/tiny:Q8_0', /holds no \.gguf files/);
});

test('a cut download, a repo the hub lacks, a taken or unsafe folder name: a message, and nothing half-written', async () => {
  const into = models();
  await assert.rejects(addModel('test/cut', { into, endpoint, log: quiet }), (e) => e instanceof AddModelError && /model\.safetensors: the download broke off/.test(e.message));
  assert.ok(!existsSync(join(into, 'cut')), 'a cut download leaves no folder');
  await assert.rejects(addModel('test/none', { into, endpoint, log: quiet }), /no public repo test\/none/);
  await assert.rejects(addModel('test/tiny', { into, endpoint: 'http://127.0.0.1:9', log: quiet }), /does this machine reach the hub/);
  await assert.rejects(addModel('../etc', { into, endpoint, log: quiet }), /not a hub repo id/);
  await assert.rejects(addModel('test/tiny', { into, endpoint, as: '../up', log: quiet }), /cannot be a model folder's name/);
  mkdirSync(join(into, 'tiny'));
  await assert.rejects(addModel('test/tiny', { into, endpoint, log: quiet }), /exists; remove it or give --as/);
});
