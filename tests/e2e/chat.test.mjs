// An Instruct model's chat template on the page: a conversation rendered by
// the repo's own template (Qwen2.5-Instruct's) into exactly HF's
// apply_chat_template text, its special tokens single tokens in the
// inspector, and lanes that stop at the end of the assistant's turn because
// the model's generation_config.json says so, unless a lane starts from the
// library's defaults.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { start, modelReady, runAll, setKnob } from './harness.mjs';
import { startHub, HUB_ARGS } from './hub_server.mjs';
import { chatRepo, hfRender, IM_END } from './chat_model.mjs';

let hub, env;
before(async () => {
  hub = await startHub({ 'teacher/tiny-chat-instruct': chatRepo() });
  env = await start({ args: HUB_ARGS });
});
after(async () => { await env?.close(); await hub?.close(); });

test('a conversation renders as HF renders it, its special tokens show in the inspector, and lanes stop at <|im_end|> from the model\'s generation_config', async () => {
  const page = await env.open('?model=teacher/tiny-chat-instruct');
  await modelReady(page);
  const hf = hfRender('qwen2.5', 'with_system', true);
  await page.click('[data-testid="chat-editor"] summary');
  const turns = await page.$$('[data-testid="chat-turn"]');
  assert.equal(turns.length, 2);
  assert.deepEqual(await page.$$eval('[data-testid="chat-role"]', (els) => els.map((e) => e.value)), ['system', 'user']);
  const contents = await page.$$('[data-testid="chat-content"]');
  for (const [i, m] of hf.messages.entries()) await contents[i].fill(m.content);
  await page.click('[data-testid="chat-render"]');
  await page.waitForFunction((want) => document.querySelector('[data-testid="prompt"]').value === want, hf.text, { timeout: 30_000 });

  // A share link made now carries the conversation: opened, the chat editor holds it.
  await page.click('[data-testid="share"]');
  const link = await page.inputValue('[data-testid="share-link"]');
  const shared = await env.open(link.slice(env.base.length));
  await shared.click('[data-testid="confirm-load"]');
  await modelReady(shared);
  await shared.click('[data-testid="chat-editor"] summary');
  assert.deepEqual(await shared.$$eval('[data-testid="chat-content"]', (els) => els.map((e) => e.value)), hf.messages.map((m) => m.content));
  assert.equal(await shared.inputValue('[data-testid="prompt"]'), hf.text);
  await shared.close();

  // The inspector: the prompt's tokens are HF's ids, <|im_start|> one token.
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="prompt-token"]').length === n, hf.ids.length, { timeout: 30_000 });
  const ids = await page.$$eval('[data-testid="prompt-token"]', (els) => els.map((e) => Number(e.dataset.tokenId)));
  assert.deepEqual(ids, hf.ids);
  assert.equal(ids.filter((id) => id === IM_END).length, 2, 'each closed turn ends with <|im_end|>');

  // Lanes 1–3 start from the model's file (eos <|im_end|>): they end the turn
  // at once. Lane 4 starts from the library's defaults (eos <|endoftext|>).
  await page.click('[data-testid="lane-3"] [data-testid="starts-from"] input');
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 5);
  await runAll(page);
  const stops = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => e.dataset.stop));
  const counts = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => Number(e.textContent.split(' · ')[1].split(' ')[0])));
  for (let l = 0; l < 3; l++) {
    assert.equal(stops[l], 'eos', `lane ${l + 1} stops at the end of its turn`);
    assert.equal(counts[l], 1);
  }
  assert.equal(stops[3], 'max_new_tokens', 'the library\'s eos is <|endoftext|>, which never comes');
  assert.equal(counts[3], 5);

  // The next turn is the assistant's; the repo's tokenizer_config.json was asked for once.
  await page.click('[data-testid="chat-add"]');
  const roles = await page.$$('[data-testid="chat-role"]');
  assert.equal(await roles[2].inputValue(), 'assistant');
  assert.deepEqual(hub.log.filter((e) => e.path.endsWith('/tokenizer_config.json')).map((e) => e.status), [302]);
  await page.close();
});

test('a base model (no chat template) offers no conversation editor', async () => {
  const page = await env.open('?model=bundled');
  await modelReady(page);
  assert.equal(await page.$('[data-testid="chat-editor"]'), null);
  await page.close();
});

test('every lesson preset runs unchanged on an Instruct model whose generation_config samples; the beam lanes run as beam sampling, as generate() does', async () => {
  const page = await env.open('?model=teacher/tiny-chat-instruct');
  await modelReady(page);
  const presets = await page.$$eval('[data-testid="preset"] option', (os) => os.map((o) => o.textContent.trim()).filter(Boolean));
  assert.ok(presets.length >= 12, `presets: ${presets}`);
  for (const name of presets) {
    await page.selectOption('[data-testid="preset"]', { label: name });
    await runAll(page);
    assert.deepEqual(await page.$$eval('[data-testid="lane-error"]', (els) => els.map((e) => e.textContent)), [], `${name}: no lane refused`);
    const stops = await page.$$eval('[data-testid="lane-status"]', (els) => els.map((e) => e.dataset.stop));
    assert.ok(stops.every((s) => s && s !== 'cancelled'), `${name}: every lane finished: ${stops}`);
    if (name === 'Beam search vs greedy') {
      const modes = await page.$$eval('[data-testid="starts-from"]', (els) => els.map((e) => e.dataset.mode));
      assert.deepEqual(modes, ['sample', 'beam_sample', 'beam_sample', 'beam_sample']);
      // A beam lane's steps list the continuations it drew.
      await page.click('[data-testid="lane-1"] [data-testid="token"]');
      assert.ok((await page.$$('[data-testid="beam-candidate"]')).length > 0, 'the beam table is shown');
    }
  }
  await page.close();
});

test("on an Instruct model the compare view, the sandbox and the export see each lane as it ran, the model's knobs under its own", async () => {
  const page = await env.open('?model=teacher/tiny-chat-instruct');
  await modelReady(page);
  for (let l = 0; l < 4; l++) await setKnob(page, l, 'max_new_tokens', 6);
  await runAll(page);
  // Lane 1 says nothing: it samples with the file's temperature, top_k, top_p and penalty.
  await page.click('[data-testid="grid-cell"][data-lane="0"][data-step="0"]');
  await page.waitForSelector('[data-testid="compare"][data-step="0"]');
  const table = await page.$$eval('[data-testid="compare-lane"][data-lane="0"] [data-testid="compare-row"] [data-testid="candidate"]',
    (cs) => Object.fromEntries(cs.map((c) => [c.closest('tr').dataset.tokenId, Number(c.dataset.prob)])));
  assert.ok(Object.keys(table).length >= 10, 'the lane has a table');
  await page.click('[data-testid="compare-lane"][data-lane="0"] [data-testid="open-sandbox"]');
  await page.waitForSelector('[data-testid="sandbox-source"][data-lane="0"][data-step="0"]');
  const box = (knob) => page.inputValue(`[data-testid="sandbox-${knob}"]`);
  assert.deepEqual([await box('temperature'), await box('top-k'), await box('top-p'), await box('repetition-penalty')], ['0.7', '20', '0.8', '1.05']);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="sandbox-row"]').length >= 10);
  const held = Object.fromEntries(await page.$$eval('[data-testid="sandbox-row"]', (rs) => rs.map((r) => [r.dataset.tokenId, Number(r.dataset.prob)])));
  for (const [id, p] of Object.entries(table)) assert.ok(Math.abs(held[id] - p) <= 1e-6, `token ${id}: sandbox ${held[id]}, lane ${p}`);
  await page.keyboard.press('Escape');
  // The export records the configs the lanes ran with, the file's knobs included.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-json"]')]);
  const doc = JSON.parse(readFileSync(await download.path(), 'utf8'));
  const first = doc.runs[0].config;
  assert.deepEqual([first.do_sample, first.temperature, first.top_k, first.top_p, first.repetition_penalty], [true, 0.7, 20, 0.8, 1.05]);
  assert.deepEqual(first.eos_token_id, [IM_END, 50256]);
  assert.equal(doc.runs[0].steps.length, await page.locator('[data-testid="lane-0"] [data-testid="token"]').count());
  await page.close();
});
