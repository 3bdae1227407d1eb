// A peer on the same checkpoint: transformers.js (onnxruntime-web, WASM) on
// the ONNX export of the distilgpt2-shaped bench checkpoint (bench/make_onnx.py),
// in fp32 or its q8 form, in the same headless Chromium, served as the page is
// served (cross-origin isolated with two threads, or not and one thread), the
// same prompt and 64 new tokens (min_new_tokens = 64). transformers.js runs
// one generate() per lane (different configs do not batch), so "four lanes"
// are the four default lanes one after another, as HF's peer runs them.
// Installed from npm into bench/peers/ (`--ignore-scripts`); onnxruntime-web's
// wasm is served from there, never a CDN. Prints one JSON object as
// bench/browser.mjs does (medians of RUNS); first token is a generate() of
// one new token, load is from_pretrained (the files are on 127.0.0.1).
//   node bench/transformers_js.mjs [RUNS] [--q8] [--single-thread]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from '../scripts/serve.mjs';
import { launchChromium } from './bench_page.mjs';
import { LANES, PROMPT, NEW_TOKENS, summarize } from './workload.mjs';

const VERSION = '4.3.1';
const args = process.argv.slice(2);
const threaded = !args.includes('--single-thread');
const q8 = args.includes('--q8');
const [runsArg] = args.filter((a) => !a.startsWith('--'));
const RUNS = Number(runsArg || 3);
const model = resolve('bench/out/onnx/distilgpt2-random');
if (!existsSync(join(model, 'onnx/model.onnx'))) throw new Error(`${model}: no ONNX export (python bench/make_onnx.py in a venv with optimum-onnx)`);

const peers = resolve('bench/peers');
const modules = join(peers, 'node_modules');
if (!existsSync(join(modules, '@huggingface/transformers/package.json'))) {
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', peers, `@huggingface/transformers@${VERSION}`], { stdio: 'inherit' });
}

const site = mkdtempSync(join(tmpdir(), 'ntl-tjs-'));
symlinkSync(join(modules, '@huggingface/transformers/dist'), join(site, 'tjs'));
symlinkSync(join(modules, 'onnxruntime-web/dist'), join(site, 'ort'));
symlinkSync(resolve('bench/out/onnx'), join(site, 'models'));
// transformers.js imports onnxruntime by bare names: the page maps them to
// onnxruntime-web's own module, whose Tensor is the one its sessions take.
writeFileSync(join(site, 'ort-common.mjs'), "export * from './ort/ort.webgpu.min.mjs';\n");
writeFileSync(join(site, 'bench.html'), `<!doctype html><title>bench</title>
<script type="importmap">{"imports": {"onnxruntime-web/webgpu": "./ort/ort.webgpu.min.mjs", "onnxruntime-common": "./ort-common.mjs"}}</script>`);
const server = await serve(site, 0, { isolated: threaded });
const browser = await launchChromium();
let result;
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/bench.html`);
  const lanes = LANES.map((l) => ({ ...l, max_new_tokens: NEW_TOKENS, min_new_tokens: NEW_TOKENS }));
  result = await page.evaluate(async ({ threads, dtype, lanes, prompt, runs }) => {
    const t = await import('./tjs/transformers.web.js');
    t.env.allowRemoteModels = false;
    t.env.allowLocalModels = true; // off by default in a browser
    t.env.localModelPath = './models/';
    t.env.useBrowserCache = false;
    const base = new URL('./ort/', location.href).href;
    t.env.backends.onnx.wasm.wasmPaths = { mjs: `${base}ort-wasm-simd-threaded.asyncify.mjs`, wasm: `${base}ort-wasm-simd-threaded.asyncify.wasm` };
    t.env.backends.onnx.wasm.numThreads = threads;
    const t0 = performance.now();
    const tokenizer = await t.AutoTokenizer.from_pretrained('distilgpt2-random');
    const model = await t.AutoModelForCausalLM.from_pretrained('distilgpt2-random', { dtype, device: 'wasm' });
    const load_ms = performance.now() - t0;
    const inputs = tokenizer(prompt);
    const promptLen = inputs.input_ids.dims[1];
    const generate = async (cfg) => {
      const start = performance.now();
      const out = await model.generate({ ...inputs, ...cfg });
      return { ms: performance.now() - start, tokens: out.dims[1] - promptLen };
    };
    await generate(lanes[0]); // warm-up
    const one = [];
    const four = [];
    for (let r = 0; r < runs; r++) {
      const first = (await generate({ max_new_tokens: 1, min_new_tokens: 1 })).ms;
      one.push({ ...(await generate(lanes[0])), first });
      const each = [];
      for (const cfg of lanes) each.push(await generate(cfg));
      four.push({ ms: each.reduce((s, e) => s + e.ms, 0), tokens: each.reduce((s, e) => s + e.tokens, 0), first });
    }
    return { load_ms, one, four, isolated: self.crossOriginIsolated };
  }, { threads: threaded ? 2 : 1, dtype: q8 ? 'q8' : 'fp32', lanes, prompt: PROMPT, runs: RUNS });
} finally {
  await browser.close();
  server.close();
}
if (threaded && !result.isolated) throw new Error('the bench page is not cross-origin isolated');

console.log(JSON.stringify({
  engine: `transformers.js ${VERSION} ${q8 ? 'q8' : 'fp32'}` + (threaded ? '' : ' single-threaded'), threads: threaded ? 2 : 1, runs: RUNS, load_ms: result.load_ms,
  four_lanes: summarize(result.four), one_lane: summarize(result.one),
}));
