// A student's MiniGPT (seed 004) in the page: a folder beside the page holding
// the minigpt.pt and tokenizer.json the tutorial saves, and the same files
// picked (with a config.json giving the head count), run in a tutorial lane
// ("semantics": "tutorial") past the model's context beside an HF lane that
// stops there. The files and the expected ids are dnnlpy's own
// (tests/reference/make_minigpt_fixtures.py): the page's greedy tutorial
// lane must give exactly the ids dnnlpy's tutorial loop gave.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, symlinkSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { start, modelReady, runAll, ROOT } from './harness.mjs';
import { indexModels } from '../../scripts/index-models.mjs';

const DIST = join(ROOT, 'dist');
const FIX = join(ROOT, 'tests', 'fixtures', 'minigpt');
const PROMPT = 'Once upon a time, there was a little girl';
const expected = (name) => JSON.parse(readFileSync(join(FIX, name, 'expected.json'), 'utf8'));
let site, env;

before(async () => {
  site = mkdtempSync(join(tmpdir(), 'ntl-minigpt-site-'));
  for (const name of readdirSync(DIST)) if (name !== 'models') symlinkSync(join(DIST, name), join(site, name));
  mkdirSync(join(site, 'models', 'student-minigpt'), { recursive: true });
  symlinkSync(join(DIST, 'models', 'kjv-gpt2'), join(site, 'models', 'kjv-gpt2'));
  for (const f of ['minigpt.pt', 'tokenizer.json']) symlinkSync(join(FIX, 'tiny', f), join(site, 'models', 'student-minigpt', f));
  indexModels(join(site, 'models'));
  env = await start({ dir: site });
});
after(async () => {
  await env?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

const lanes = (n) => [{ semantics: 'tutorial', do_sample: false, max_new_tokens: n }, { max_new_tokens: n }];
const link = (model, n) => '#run=1.' + deflateRawSync(Buffer.from(JSON.stringify({ prompt: PROMPT, lanes: lanes(n), model }))).toString('base64url');

async function exported(page) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-json"]')]);
  const chunks = [];
  for await (const c of await d.createReadStream()) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function assertTutorialRun(doc, x) {
  // The HF lane's room crops the shared prompt; the tutorial lane slides over all of it.
  assert.deepEqual(doc.prompt_ids, x.prompt.slice(doc.prompt_cropped), 'the same tokenizer gives the same prompt ids');
  const [tutorial, hf] = doc.runs;
  assert.equal(tutorial.mode, 'tutorial');
  assert.equal(tutorial.stop_reason, 'max_new_tokens');
  assert.deepEqual(tutorial.token_ids, x.greedy.slice(x.prompt.length), "dnnlpy's own greedy loop, past the context");
  assert.equal(hf.stop_reason, 'context_full');
}

/** A link naming a MiniGPT folder beside the page: confirmed, loaded, its tutorial lane run to dnnlpy's ids. */
async function runHostedFolder(folder, x) {
  const page = await env.context.newPage();
  await page.goto(env.base + '?model=bundled' + link(folder, x.greedy.length - x.prompt.length));
  await page.waitForSelector('[data-testid="confirm-load"]', { timeout: 60_000 });
  await page.click('[data-testid="confirm-load"]');
  await modelReady(page);
  assert.match(await page.textContent('[data-testid="model-status"]'), /MiniGPT \(dnnlpy\)/);
  await runAll(page);
  assertTutorialRun(await exported(page), x);
  await page.close();
}

test("a folder holding a student's minigpt.pt loads from a link, says MiniGPT, and its tutorial lane writes dnnlpy's ids past the context", async () => {
  await runHostedFolder('models/student-minigpt/', expected('tiny'));
});

test('Change model lists the MiniGPT folder as a MiniGPT', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  await page.click('.model-choice summary');
  await page.waitForSelector('[data-folder="models/student-minigpt/"]');
  assert.match(await page.textContent('[data-folder="models/student-minigpt/"] [data-testid="site-model-facts"]'), /^MiniGPT \(dnnlpy\)/);
  await page.close();
});

test("picked minigpt.pt, config.json and tokenizer.json load (two heads, untied, no biases) and match dnnlpy; a pickle that calls a function is refused by name", async () => {
  const x = expected('untied');
  const page = await env.open('?model=bundled' + link('bundled', x.greedy.length - x.prompt.length));
  await modelReady(page);
  await page.click('.model-choice summary');
  await page.setInputFiles('[data-testid="model-files"]', ['minigpt.pt', 'config.json', 'tokenizer.json'].map((f) => join(FIX, 'untied', f)));
  await page.waitForFunction(() => /MiniGPT/.test(document.querySelector('[data-testid="model-status"][data-state="ready"]')?.textContent || ''), null, { timeout: 60_000 });
  await runAll(page);
  assertTutorialRun(await exported(page), x);
  await page.setInputFiles('[data-testid="model-files"]', [join(FIX, 'bad', 'evil.pt'), join(FIX, 'tiny', 'tokenizer.json')]);
  await page.waitForSelector('[data-testid="model-status"][data-state="failed"]');
  assert.match(await page.textContent('[data-testid="model-status"]'), /posix\.system/);
  // A .pt past what a tab holds is refused by its size before it is read (a sparse file: no disk, no bytes read).
  const huge = join(mkdtempSync(join(tmpdir(), 'ntl-huge-pt-')), 'minigpt.pt');
  writeFileSync(huge, '');
  truncateSync(huge, 1_500_000_000);
  await page.click('[data-testid="keep-previous-model"]');
  await page.waitForSelector('[data-testid="model-status"][data-state="ready"]');
  await page.setInputFiles('[data-testid="model-files"]', [huge, join(FIX, 'tiny', 'tokenizer.json')]);
  await page.waitForSelector('[data-testid="model-status"][data-state="failed"]');
  assert.match(await page.textContent('[data-testid="model-status"]'), /`minigpt\.pt` is 1500 MB; loading it needs about 5\.1 GB/);
  rmSync(dirname(huge), { recursive: true, force: true });
  // The refused files cost nothing: the MiniGPT before them is still loaded, and runs as it did.
  await page.click('[data-testid="keep-previous-model"]');
  await page.waitForSelector('[data-testid="model-status"][data-state="ready"]');
  assert.match(await page.textContent('[data-testid="model-status"]'), /MiniGPT \(dnnlpy\)/);
  await runAll(page);
  assertTutorialRun(await exported(page), x);
  await page.close();
});

/** The entries of a zip whose files are stored, not deflated (what the page writes). */
function storedEntries(zip) {
  const out = {};
  for (let at = 0; zip.readUInt32LE(at) === 0x04034b50;) {
    assert.equal(zip.readUInt16LE(at + 8), 0, 'stored');
    const size = zip.readUInt32LE(at + 18);
    const nameLen = zip.readUInt16LE(at + 26);
    const extraLen = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 30, at + 30 + nameLen);
    const start = at + 30 + nameLen + extraLen;
    out[name] = zip.subarray(start, start + size);
    at = start + size;
  }
  return out;
}

test("a minigpt.pt picked without config.json takes the heads field's count (checked against the width), and saves as a folder the class loads", async () => {
  const x = expected('untied');
  const page = await env.open('?model=bundled' + link('bundled', x.greedy.length - x.prompt.length));
  await modelReady(page);
  await page.click('.model-choice summary');
  assert.equal(await page.inputValue('[data-testid="minigpt-heads"]'), '4', "the tutorial's 4 until told otherwise");
  const picked = ['minigpt.pt', 'tokenizer.json'].map((f) => join(FIX, 'untied', f));
  // 5 heads do not divide a width of 32: refused by name, and the bundled model stays.
  await page.fill('[data-testid="minigpt-heads"]', '5');
  await page.dispatchEvent('[data-testid="minigpt-heads"]', 'change');
  await page.setInputFiles('[data-testid="model-files"]', picked);
  await page.waitForSelector('[data-testid="model-status"][data-state="failed"]');
  assert.match(await page.textContent('[data-testid="model-status"]'), /`num_heads` is 5, which does not divide the width 32/);
  assert.match(await page.textContent('[data-testid="keep-previous-model"]'), /KJV-GPT-2|bundled/i);
  // The count it was trained with: dnnlpy's own ids.
  await page.fill('[data-testid="minigpt-heads"]', '2');
  await page.dispatchEvent('[data-testid="minigpt-heads"]', 'change');
  await page.setInputFiles('[data-testid="model-files"]', picked);
  await page.waitForFunction(() => /MiniGPT/.test(document.querySelector('[data-testid="model-status"][data-state="ready"]')?.textContent || ''), null, { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid="model-status"]'), /2 heads/);
  await runAll(page);
  assertTutorialRun(await exported(page), x);
  // Saved as a folder: config.json (with its 2 heads), model.safetensors, tokenizer.json.
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="save-model-folder"]')]);
  assert.equal(d.suggestedFilename(), 'minigpt.zip');
  const chunks = [];
  for await (const c of await d.createReadStream()) chunks.push(c);
  const files = storedEntries(Buffer.concat(chunks));
  assert.deepEqual(Object.keys(files).sort(), ['minigpt/config.json', 'minigpt/model.safetensors', 'minigpt/tokenizer.json']);
  assert.equal(JSON.parse(files['minigpt/config.json']).num_heads, 2);
  assert.deepEqual(files['minigpt/tokenizer.json'], readFileSync(join(FIX, 'untied', 'tokenizer.json')));
  await page.close();
  // Hosted beside the page as the hint says, it loads from a link and writes the same ids.
  const hosted = join(site, 'models', 'saved-minigpt');
  mkdirSync(hosted, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(hosted, name.split('/')[1]), bytes);
  assert.ok(indexModels(join(site, 'models')).some((m) => m.folder === 'saved-minigpt' && m.architecture === 'MiniGPT (dnnlpy)'));
  await runHostedFolder('models/saved-minigpt/', x);
});
