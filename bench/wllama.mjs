// A peer on the same GGUF file: wllama (llama.cpp built to wasm, CPU) in the
// same headless Chromium, served as the page is served (cross-origin
// isolated with two threads, or not and one thread), the same prompt and 64
// new tokens. wllama runs one completion at a time, so "four lanes" are the
// four default lanes one after another (the no-repeat-3-gram lane runs
// greedy: llama.cpp's chain has no such knob), as HF's peer runs them. wllama
// and its wasm come from npm into bench/peers/ (`--ignore-scripts`, never a
// CDN). Prints one JSON object as bench/browser.mjs does (medians of RUNS).
//   node bench/wllama.mjs FILE.gguf [RUNS] [--single-thread]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { serve } from '../scripts/serve.mjs';
import { launchChromium } from './bench_page.mjs';
import { LANES, PROMPT, NEW_TOKENS, summarize } from './workload.mjs';

const VERSION = '3.8.1';
const args = process.argv.slice(2);
const threaded = !args.includes('--single-thread');
const [file, runsArg] = args.filter((a) => !a.startsWith('--'));
const RUNS = Number(runsArg || 3);
if (!file?.endsWith('.gguf')) throw new Error('usage: node bench/wllama.mjs FILE.gguf [RUNS] [--single-thread]');

const peers = resolve('bench/peers');
const esm = join(peers, 'node_modules/@wllama/wllama/esm');
if (!existsSync(join(esm, 'wasm/wllama.wasm'))) {
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', peers, `@wllama/wllama@${VERSION}`], { stdio: 'inherit' });
}

const site = mkdtempSync(join(tmpdir(), 'ntl-wllama-'));
symlinkSync(esm, join(site, 'wllama'));
symlinkSync(resolve(dirname(file)), join(site, 'bench-model'));
writeFileSync(join(site, 'bench.html'), '<!doctype html><title>bench</title>');
const server = await serve(site, 0, { isolated: threaded });
// llama.cpp's names for the workload's knobs.
const sampling = (lane) => lane.do_sample
  ? { temp: lane.temperature, top_p: lane.top_p ?? 1, top_k: 0, min_p: 0, seed: lane.seed }
  : { temp: 0 };
const lanes = LANES.map(sampling);

async function measure() {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/bench.html`);
    return await page.evaluate(async ({ url, threads, lanes, prompt, newTokens, runs }) => {
      const { Wllama } = await import('./wllama/index.js');
      const quiet = { debug() {}, log() {}, warn() {}, error: console.error };
      const wllama = new Wllama({ default: './wllama/wasm/wllama.wasm' }, { logger: quiet, suppressNativeLog: true });
      const blob = await (await fetch(url)).blob();
      // Load time from bytes in memory to ready, as the page's worker reports it.
      const t0 = performance.now();
      await wllama.loadModel([blob], { n_threads: threads, n_ctx: 256, n_batch: 256, n_gpu_layers: 0, cache_type_k: 'f32', cache_type_v: 'f32' });
      const load_ms = performance.now() - t0;
      const complete = async (s) => {
        const start = performance.now();
        let first = null;
        let tokens = 0;
        await wllama.createCompletion({
          prompt, max_tokens: newTokens, ignore_eos: true, cache_prompt: false, stream: true, ...s,
          onData: (chunk) => {
            if (first === null) first = performance.now() - start;
            if (chunk.timings) tokens = chunk.timings.predicted_n;
          },
        });
        return { ms: performance.now() - start, first, tokens };
      };
      await complete(lanes[0]); // warm-up
      const one = [];
      const four = [];
      for (let r = 0; r < runs; r++) {
        one.push(await complete(lanes[0]));
        const each = [];
        for (const s of lanes) each.push(await complete(s));
        four.push({ ms: each.reduce((t, e) => t + e.ms, 0), first: each[0].first, tokens: each.reduce((t, e) => t + e.tokens, 0) });
      }
      return { load_ms, one, four, threads, isolated: self.crossOriginIsolated };
    }, { url: `./bench-model/${basename(file)}`, threads: threaded ? 2 : 1, lanes, prompt: PROMPT, newTokens: NEW_TOKENS, runs: RUNS });
  } finally {
    await browser.close();
  }
}

// wllama 3.8.1 now and then fails to take the file ("Invalid typed array
// length: 1163217991", the GGUF magic read as a length); a fresh page loads it.
let result;
for (let attempt = 1; ; attempt++) {
  try {
    result = await measure();
    break;
  } catch (e) {
    if (attempt === 3 || !/Invalid typed array length/.test(e.message)) throw e;
    console.error(`wllama: ${e.message.split('\n')[0]} — attempt ${attempt + 1}`);
  }
}
server.close();
if (threaded && !result.isolated) throw new Error('the bench page is not cross-origin isolated');

console.log(JSON.stringify({
  engine: `wllama ${VERSION}` + (threaded ? '' : ' single-threaded'), threads: result.threads, runs: RUNS, load_ms: result.load_ms,
  four_lanes: summarize(result.four), one_lane: summarize(result.one),
}));
