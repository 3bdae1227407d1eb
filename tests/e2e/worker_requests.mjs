// Worker requests covering every kind of lane, shared by the threads test and
// the Firefox and WebKit suites (the same documents in every worker build and
// browser), and Chromium's single-threaded documents for them, the reference.
import { start as startChromium } from './harness.mjs';
import { driveWorker } from './worker_client.mjs';

// Every kind of lane, so the split kernel and the lanes decided on helper
// threads are both exercised (the bundled model's head has 50257 columns).
const lane = (config) => ({ config: { max_new_tokens: 12, ...config }, forced_ids: null });
export const REQUESTS = [
  { prompt: 'In the beginning', top_n: 20, lanes: [
    lane({}),
    lane({ do_sample: true, temperature: 0.8, top_k: 40, top_p: 0.9, seed: 7 }),
    lane({ do_sample: true, temperature: 1.3, typical_p: 0.9, repetition_penalty: 1.2, seed: 3 }),
    lane({ no_repeat_ngram_size: 2, min_new_tokens: 12 }),
  ] },
  { prompt: 'And the LORD said unto Moses', top_n: 20, lanes: [
    lane({ num_beams: 3, num_return_sequences: 2, length_penalty: 0.8 }),
    lane({ penalty_alpha: 0.6, top_k: 4 }),
    // llama.cpp's chain, its own mt19937 draws and stateful samplers.
    { config: { semantics: 'llama.cpp', n_predict: 12, seed: 5, repeat_penalty: 1.2, dry_multiplier: 0.8, xtc_probability: 0.5 }, forced_ids: null },
  ] },
  // A longer prompt than the kernel takes (16 rows): prefill through gemm.
  { prompt: 'And God said, Let there be light: and there was light. And God saw the light, that it was good: and God divided the light from the darkness.', top_n: 20, lanes: [lane({ do_sample: true, seed: 11 })] },
  // The logit lens: normed early exits beside DoLa's unnormed ones in one
  // pass, and a tutorial lane's window pass past its block.
  { prompt: 'In the beginning God', top_n: 20, lens: true, lanes: [
    lane({}),
    lane({ do_sample: true, temperature: 0.9, seed: 4 }),
    lane({ dola_layers: 'high', repetition_penalty: 1.2 }),
    { config: { semantics: 'tutorial', max_new_tokens: 12, block_size: 6, seed: 9 }, forced_ids: null },
  ] },
];

/// Sample trees (`ToWorker::Tree`) every build and browser must grow alike:
/// the same branches, counts and probabilities, to the bit.
export const TREES = [
  { prompt: 'And God said', lane: { config: { do_sample: true, temperature: 0.9, top_p: 0.95, repetition_penalty: 1.1, seed: 8 }, forced_ids: null }, samples: 200, tokens: 5 },
];

/// The index of the request that records the logit lens.
export const LENS_REQUEST = REQUESTS.findIndex((r) => r.lens);

/// Chromium's single-threaded worker on the bundled model, run over REQUESTS:
/// the documents every other browser and worker build must equal.
export async function chromiumReference() {
  const chromium = await startChromium({ isolated: false });
  try {
    const page = await chromium.open('?model=bundled');
    return await page.evaluate(driveWorker, { loader: './worker_loader.js', modelBase: 'models/kjv-gpt2', requests: REQUESTS, trees: TREES });
  } finally {
    await chromium.close();
  }
}
