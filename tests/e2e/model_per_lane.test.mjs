// A model per lane in the page's worker (the protocol; the page's own
// controls for it are still to come): the bundled KJV GPT-2 and the
// tutorial's MiniGPT, two tokenizers, held at once; lanes on both, in
// one run, give each model's single-model run exactly, on the
// single-threaded and the threaded worker; a lane naming a model the
// worker does not hold fails the run with that lane's number; a folder
// that is not one is refused by name and the page's model stays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.mjs';
import { driveWorker } from './worker_client.mjs';

const MINIGPT = { name: 'models/tutorial-minigpt/', source: { kind: 'folder', path: 'models/tutorial-minigpt/' } };
const KJV = { modelBase: 'models/kjv-gpt2' };
const MINIGPT_FILES = { modelBase: 'models/tutorial-minigpt', names: ['config.json', 'minigpt.pt', 'tokenizer.json'] };

const GREEDY = { config: { max_new_tokens: 8 }, forced_ids: null };
const SAMPLING = { config: { do_sample: true, temperature: 0.8, top_k: 20, seed: 11, max_new_tokens: 8 }, forced_ids: null };
const BEAMS = { config: { num_beams: 2, max_new_tokens: 6 }, forced_ids: null };

function request(lanes, laneModels) {
  return { prompt: 'And God said', lanes, top_n: 5, ...(laneModels ? { lane_models: laneModels } : {}) };
}

let plain, isolated;
before(async () => { [plain, isolated] = await Promise.all([start({ isolated: false }), start()]); });
after(async () => { await Promise.all([plain?.close(), isolated?.close()]); });

async function drive(env, options) {
  const page = await env.open('?model=bundled');
  try {
    return await page.evaluate(driveWorker, { loader: './worker_loader.js', ...options });
  } finally {
    await page.close();
  }
}

test('lanes on two models in one run are each model\'s own run, exactly, in either worker', async () => {
  const alone = await drive(plain, { ...KJV, requests: [request([GREEDY, BEAMS])] });
  const minigpt = await drive(plain, { ...MINIGPT_FILES, requests: [request([SAMPLING, GREEDY])] });
  const mixed = [GREEDY, SAMPLING, BEAMS, GREEDY];
  const on = [null, MINIGPT.name, null, MINIGPT.name];
  for (const [env, loader] of [[plain, './worker_loader.js'], [isolated, './worker_mt_loader.js']]) {
    const both = await drive(env, { ...KJV, loader, laneModels: [MINIGPT], requests: [request(mixed, on)] });
    assert.equal(both.lanes[0].type, 'lane_model_loaded', JSON.stringify(both.lanes[0]));
    assert.equal(both.lanes[0].info.vocab_size, minigpt.loaded.info.vocab_size);
    const doc = both.finished[0].document;
    const kjv = alone.finished[0].document;
    const own = minigpt.finished[0].document;
    assert.deepEqual(doc.prompt_ids, kjv.prompt_ids, 'the first lane\'s model heads the document');
    assert.deepEqual(doc.runs[0], kjv.runs[0], `${loader}: lane 1 as KJV GPT-2 runs it alone`);
    assert.deepEqual(doc.runs[2], kjv.runs[1], `${loader}: lane 3`);
    for (const [lane, k] of [[1, 0], [3, 1]]) {
      const { model, ...run } = doc.runs[lane];
      assert.equal(model.name, MINIGPT.name);
      assert.deepEqual(model.prompt_ids, own.prompt_ids);
      assert.deepEqual(run, own.runs[k], `${loader}: lane ${lane + 1} as the MiniGPT runs it alone`);
    }
    assert.notDeepEqual(doc.runs[1].model.prompt_ids, doc.prompt_ids, 'two tokenizers');
    // Each lane's text is shown in its own model's vocabulary.
    assert.equal(both.finished[0].shown_texts[1], minigpt.finished[0].shown_texts[0]);
  }
});

test('a lane naming a model the worker does not hold fails the run with its number; a bad folder is refused by name', async () => {
  await assert.rejects(
    drive(plain, { ...KJV, requests: [request([GREEDY, GREEDY], [null, 'models/elsewhere/'])] }),
    /lane 2: its model `models\/elsewhere\/` is not loaded/,
  );
  const out = await drive(plain, {
    ...KJV,
    laneModels: [{ name: 'gone', source: { kind: 'folder', path: 'models/not-here/' } }, { name: 'evil', source: { kind: 'folder', path: '../x/' } }],
    requests: [request([GREEDY])],
  });
  assert.deepEqual(out.lanes.map((m) => [m.type, m.name]), [['lane_model_failed', 'gone'], ['lane_model_failed', 'evil']]);
  assert.match(JSON.stringify(out.lanes[1].trouble), /is not a model folder beside the page/);
  assert.equal(out.finished[0].document.runs.length, 1, 'the page\'s model still runs');
});
