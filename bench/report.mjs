// Writes BENCHMARKS.md from the JSON figures of one scripts/bench.sh run.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { LANES, PROMPT, NEW_TOKENS, median } from './workload.mjs';

const dir = process.argv[2] || 'bench/out';
// One directory per round (bench.sh runs every engine once per round).
const rounds = readdirSync(dir).filter((d) => /^round-\d+$/.test(d)).sort().map((d) => {
  const read = (n) => (existsSync(join(dir, d, n)) ? JSON.parse(readFileSync(join(dir, d, n), 'utf8')) : null);
  return {
    native: read('native.json'), browser: read('browser.json'), single: read('browser-single.json'), hf: read('hf.json'),
    firefox: read('firefox.json'), firefoxSingle: read('firefox-single.json'),
    llamaBrowser: read('smollm2-browser.json'), llamaSingle: read('smollm2-browser-single.json'), llamaHf: read('smollm2-hf.json'),
  };
});
if (rounds.length === 0) throw new Error(`${dir}: no round-N directories (run scripts/bench.sh)`);
// The median of the figures a round has (an engine may be missing from some).
const med = (xs) => {
  const present = xs.filter((x) => x != null);
  return present.length === 0 ? null : median(present);
};
// An engine's figures over the rounds: every number its median, the rest as in the first round.
const merged = (objs) => {
  const present = objs.filter((o) => o != null);
  if (present.length === 0) return null;
  if (typeof present[0] === 'number') return med(present);
  if (typeof present[0] !== 'object') return present[0];
  return Object.fromEntries(Object.keys(present[0]).map((k) => [k, merged(present.map((o) => o[k]))]));
};
const engine = (name) => merged(rounds.map((r) => r[name]));
// A figure with `d` decimals (the sections below use it as they are built).
const f = (x, d = 1) => (x == null ? '—' : Number(x).toFixed(d));
// The page's own cost per streamed step (bench/page_step.mjs), measured once per bench run.
const pageStep = existsSync(join(dir, 'page-step.json')) ? JSON.parse(readFileSync(join(dir, 'page-step.json'), 'utf8')) : null;
// The what-if sandbox's cost per knob change (bench/sandbox.mjs), once per bench run, both workers.
// A run that failed left an empty file (bench.sh tees each run's output): not run.
const readIf = (name) => {
  const text = existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8').trim() : '';
  return text ? JSON.parse(text) : null;
};
const sandboxRuns = [readIf('sandbox-single.json'), readIf('sandbox.json')].filter(Boolean);
const sandboxSection = !sandboxRuns.length ? '' : `
## The what-if sandbox: one knob change

A run's step held in the sandbox (\`bench/sandbox.mjs\`, the distilgpt2-shaped checkpoint, a
${sandboxRuns[0].context_tokens}-token context): the first request computes the step's row (a forward pass over the
context, then kept); each of ${sandboxRuns[0].changes} knob changes after it (temperature, top_k, top_p, min_p,
typical_p, repetition_penalty, epsilon and eta in turn) reruns the knobs over all
${sandboxRuns[0].vocab.toLocaleString('en')} tokens in the worker. The target is 16 ms per change in the
single-threaded worker.

| worker | threads | first request (row) ms | per change, worker ms (median / p90) | per change, round trip ms (median / p90) |
|---|---|---|---|---|
${sandboxRuns.map((r) => `| ${r.engine === 'browser' ? 'threaded' : 'single-threaded'} | ${r.threads} | ${f(r.first_ms, 0)} | ${f(r.change_ms.median, 1)} / ${f(r.change_ms.p90, 1)} | ${f(r.round_trip_ms.median, 1)} / ${f(r.round_trip_ms.p90, 1)} |`).join('\n')}
`;
// The sample tree (bench/sample_tree.mjs), once per bench run: both workers and decode.
const tree = readIf('sample-tree.json');
const treeRow = (name, r) => `| ${name} | ${r.threads ?? '2 (gemm)'} | ${f(r.ms / 1000, 1)} | ${r.ms_each.map((m) => f(m / 1000, 1)).join(', ')} | ${r.rows.toLocaleString('en')} | ${r.peak_memory_bytes ? f(r.peak_memory_bytes / 1e6, 0) + ' MB' : '—'} |`;
const treeSection = !tree ? '' : `
## Many samples as a tree

One sampling lane (temperature 0.7, no top-k) grown ${tree.samples.toLocaleString('en')} times × ${tree.tokens} tokens from
"${tree.prompt}" (\`bench/sample_tree.mjs\`, the distilgpt2-shaped checkpoint, a new seed each
of ${tree.runs} runs). Its weights are random, so its distribution is nearly flat and almost every sample
leaves the others at its first token: ${tree.single_thread.branches.toLocaleString('en')} branches, ${tree.single_thread.rows.toLocaleString('en')} model rows of the
${(tree.samples * tree.tokens).toLocaleString('en')} that separate runs would compute — the tree's worst case (a trained model's samples share
their beginnings, and each shared prefix is one row). The target is under a minute in the
single-threaded worker.

| engine | threads | median s | each run s | model rows | peak worker memory |
|---|---|---|---|---|---|
${treeRow('single-threaded worker (Chromium)', tree.single_thread)}
${treeRow('threaded worker (Chromium)', tree.threaded)}
${treeRow('native (`decode --samples`)', tree.native)}
`;
const pageSection = !pageStep ? '' : `
## The page's own cost per streamed step

What the page's main thread does for each step the worker streams — parse the message, update the
state, render, patch the DOM, lay out and paint — on the bundled model (four lanes, every lane
exactly N tokens; the worker's own compute is on its thread and not counted), measured by
\`bench/page_step.mjs\` from Chromium's \`TaskDuration\` and \`ScriptDuration\` (medians of ${pageStep.runs} runs):

| tokens per lane | main thread per step (ms) | of which script (ms) |
|---|---|---|
${Object.entries(pageStep.results).map(([n, r]) => `| ${n} | ${f(r.main_thread_ms_per_step, 2)} | ${f(r.script_ms_per_step, 2)} |`).join('\n')}

When the page's state moved out of \`App\` (issue #16), the page before it (commit 9937c5f) and after
it were measured in one session, alternating (two runs of three each): 4 × 64 tokens 6.12–6.29 →
3.44–3.50 ms per step (script 5.06–5.25 → 1.29–1.30), 4 × 200 tokens 4.05–4.21 → 3.75–3.88 ms
(script 2.83–2.88 → 1.74–1.82). What is left is mostly the browser's own work: parsing each
message, then style, layout and paint of a page with thousands of SVG nodes (a Chromium trace of a
4 × 120-token run: 1.1 s handling the worker's messages, 0.56 s paint, 0.23 s layout). The step
grid (issue #12: a row per step, keyed rows that are drawn once) added 0.2–0.6 ms per step of
layout and paint; the table above is measured with it.
`;
const native = engine('native'), browser = engine('browser'), single = engine('single'), hf = engine('hf');
const firefox = engine('firefox'), firefoxSingle = engine('firefoxSingle');
const mb = (b) => (b == null ? '—' : `${(b / 2 ** 20).toFixed(0)} MB`);
const chromium = (() => { try { return execSync('chromium --version', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { return 'chromium'; } })();
const firefoxVersion = (() => { try { return execSync('firefox-esr --version', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { return 'Firefox ESR'; } })();
const rustc = (() => { try { return execSync('rustc --version', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { return 'rustc'; } })();

const row = (name, r) => r ? `| ${name} | ${f(r.four_lanes.tokens_per_s)} | ${f(r.four_lanes.step_ms)} | ${f(r.one_lane.step_ms)} | ${f(r.four_lanes.step_ms / r.one_lane.step_ms, 2)} | ${f(r.one_lane.first_token_ms)} | ${f(r.one_lane.total_ms, 0)} | ${f(r.load_ms, 0)} | ${mb(r.peak_memory_bytes)} |` : `| ${name} | not run | | | | | | | |`;
const ratio = (a, b) => (a == null || b == null ? null : a / b);
// Every ratio for one round's browser run `b` (the threaded worker, or the
// single-threaded one) against the same round's other engines.
const ratios = (r, b) => ({
  r1: ratio(b?.four_lanes.tokens_per_s, r.hf?.four_lanes.tokens_per_s),
  r2: ratio(b?.four_lanes.tokens_per_s, r.native?.four_lanes.tokens_per_s),
  r3: ratio(b?.four_lanes.step_ms, b?.one_lane.step_ms),
  r4t: ratio(b?.one_lane.first_token_ms, b?.one_lane.total_ms),
  r4m: ratio(b?.peak_memory_bytes, b?.weight_bytes),
});
// R5: one lane's time per token in the browser ÷ HF's for one lane.
const withR5 = (r, b) => ({ ...ratios(r, b), r5: ratio(b?.one_lane.step_ms, r.hf?.one_lane.step_ms) });
const perRound = (which) => rounds.map((r) => withR5(r, r[which]));
const mt = perRound('browser'), st = perRound('single');
// The median of the rounds' ratios, with their range so the noise shows.
const verdict = (list, key, ok) => {
  const vs = list.map((x) => x[key]).filter((v) => v != null);
  if (vs.length === 0) return 'not measured';
  const v = med(vs);
  const range = vs.length > 1 ? ` (rounds ${f(Math.min(...vs), 2)}–${f(Math.max(...vs), 2)})` : '';
  return `${f(v, 2)}${range} — ${ok(v) ? 'met' : 'not met'}`;
};
// One target per worker: `goal` a text and a test, or one for each worker.
const target = (name, key, goal, singleGoal = goal) => `| ${name} | ${goal[0]} | ${singleGoal[0]} | ${verdict(mt, key, goal[1])} | ${verdict(st, key, singleGoal[1])} |`;

// The machine's limits (bench/peak.mjs, once per bench run and browser) and
// how close whole steps come to them.
const peaks = { chromium: readIf('peak.json'), firefox: readIf('peak-firefox.json') };
// Multiply-adds per row through the kernels: every weight but the position table.
const kernelParams = (r) => r.weight_bytes / 4 - 1024 * 768;
const limitRow = (name, r, peak) => {
  if (!r || !peak) return '';
  const all = r.threads > 1;
  const gbs = r.weight_bytes / r.one_lane.step_ms / 1e6;
  const gflops = (2 * 4 * kernelParams(r)) / r.four_lanes.step_ms / 1e6;
  const read = all ? peak.read_gbs_all : peak.read_gbs_1;
  const simd = all ? peak.simd_gflops_all : peak.simd_gflops_1;
  return `| ${name} | ${f(gbs)} GB/s of ${f(read)} (${f((100 * gbs) / read, 0)} %) | ${f(gflops)} GFLOP/s of ${f(simd)} (${f((100 * gflops) / simd, 0)} %) |\n`;
};
const peakSection = !peaks.chromium ? '' : `
## Distance to the machine's limit

\`bench/peak.mjs\` measures, in each browser, what wasm SIMD can do on this machine: multiplies
and adds with no memory traffic (six multiply chains, each feeding an add chain: the kernels'
arithmetic, two roundings; every multiply is new work: in the loop used before 2026-12-02 each
multiply was of two loop-invariant values, V8 computed it once, and only the adds were timed —
the figure came out the same, 44 GFLOP/s on one thread, because this CPU adds on two pipes and
multiplies on two others, four operations a cycle), and reading 256 MB already
written as eight sequential streams — on one thread and
on every thread (${peaks.chromium.threads}) at once, each in its own worker:

| browser | SIMD GFLOP/s, 1 thread | all threads | read GB/s, 1 thread | all threads |
|---|---|---|---|---|
${Object.values(peaks).filter(Boolean).map((p) => `| ${p.browser} | ${f(p.simd_gflops_1)} | ${f(p.simd_gflops_all)} | ${f(p.read_gbs_1)} | ${f(p.read_gbs_all)} |`).join('\n')}

Whole steps against those limits: one lane's step must read every weight once (a memory-bound
pass), four lanes' step does ${f((2 * 4 * kernelParams(browser ?? single)) / 1e9, 2)} GFLOP in the kernels (compute-bound at
four rows). Whole-step time also holds attention, layer norms, GELU and the lanes' decisions, so
these are floors of the kernels' own fractions (the in-step timers below give the kernels alone):

| worker | 1 lane: weights read per step | 4 lanes: kernel arithmetic per step |
|---|---|---|
${limitRow(`Chromium, threaded (${browser?.threads ?? '?'} threads)`, browser, peaks.chromium)}${limitRow('Chromium, single-threaded', single, peaks.chromium)}${limitRow(`Firefox ESR, threaded (${firefox?.threads ?? '?'} threads)`, firefox, peaks.firefox)}${limitRow('Firefox ESR, single-threaded', firefoxSingle, peaks.firefox)}`;

// SmolLM2-135M's shapes (issue #19): the same workload, both Chromium workers against HF.
const llama = { threaded: engine('llamaBrowser'), single: engine('llamaSingle'), hf: engine('llamaHf') };
const llamaRatio = (which, get) => med(rounds.map((r) => {
  const b = r[which], h = r.llamaHf;
  return b && h ? get(b, h) : null;
}));
const llamaRow = (name, which, r) => !r ? `| ${name} | not run | | | | | | |` :
  `| ${name} | ${f(r.four_lanes.tokens_per_s)} | ${f(r.four_lanes.step_ms)} | ${f(r.one_lane.step_ms)} | ${f(r.four_lanes.step_ms / r.one_lane.step_ms, 2)} | ${which ? f(llamaRatio(which, (b, h) => b.four_lanes.tokens_per_s / h.four_lanes.tokens_per_s), 2) : '—'} | ${which ? f(llamaRatio(which, (b, h) => b.one_lane.step_ms / h.one_lane.step_ms), 2) : '—'} | ${r.weight_bytes && r.peak_memory_bytes ? `${mb(r.peak_memory_bytes)} (${f(r.peak_memory_bytes / r.weight_bytes, 2)} × the file)` : '—'} |`;
const llamaSection = !llama.threaded && !llama.single ? '' : `
## Llama-family shapes (SmolLM2-135M)

The same workload on a random checkpoint with SmolLM2-135M's shapes (\`ntl-bench make-checkpoint --smollm2\`:
\`LlamaForCausalLM\`, 30 layers 576 wide, 9 query and 3 key/value heads, SwiGLU 1536, tied head, BF16 as the hub
stores it, ${mb(llama.threaded?.weight_bytes ?? llama.single?.weight_bytes)}; GPT-2's 50,257-token vocabulary instead of SmolLM2's 49,152). The workers keep
the weights 16-bit and widen them in the kernel; HF runs them in f32. Ratios are medians of the rounds' ratios.

| engine | 4 lanes tok/s | 4-lane step ms | 1-lane step ms | 4-lane ÷ 1-lane step | 4 lanes ÷ HF (tok/s) | 1 lane ÷ HF (time per token) | peak memory |
|---|---|---|---|---|---|---|---|
${llamaRow(`browser, threaded worker (${llama.threaded?.threads ?? '?'} threads)`, 'llamaBrowser', llama.threaded)}
${llamaRow('browser, single-threaded worker', 'llamaSingle', llama.single)}
${llama.hf ? `| HF transformers | ${f(llama.hf.four_lanes.tokens_per_s)} | ${f(llama.hf.four_lanes.step_ms)} | ${f(llama.hf.one_lane.step_ms)} | ${f(llama.hf.four_lanes.step_ms / llama.hf.one_lane.step_ms, 2)} | — | — | — |` : '| HF transformers | not run | | | | | | |'}
`;
// Quantized GGUF files beside wllama on the same files (bench.sh's quantized
// stage: bench/out/quant/<type>[-single].json and wllama-<type>[-single].json).
const quantRead = (n) => readIf(join('quant', `${n}.json`));
const QUANT_FILES = [['SmolLM2', 'smollm2', ['f16', 'q8_0', 'q4_k_m']], ['distilgpt2', 'distilgpt2', ['f16', 'q8_0', 'q4_0']], ['Qwen2.5-0.5B', 'qwen25', ['q4_k_m']]]
  .flatMap(([label, prefix, types]) => types.map((t) => [`${label} ${t.toUpperCase()}`, `${prefix}-${t}`]));
const quantRows = QUANT_FILES.flatMap(([label, t]) => [['threaded (2)', ''], ['single-threaded', '-single']].map(([worker, suffix]) => {
  const ours = quantRead(`${t}${suffix}`);
  const peer = quantRead(`wllama-${t}${suffix}`);
  if (!ours && !peer) return null;
  const ratio = (a, b) => (a != null && b != null ? f(a / b, 2) : '—');
  return `| ${label} | ${worker} | ${f(ours?.one_lane.tokens_per_s)} | ${f(peer?.one_lane.tokens_per_s)} | ${ratio(ours?.one_lane.tokens_per_s, peer?.one_lane.tokens_per_s)} | ${f(ours?.four_lanes.tokens_per_s)} | ${f(peer?.four_lanes.tokens_per_s)} | ${ratio(ours?.four_lanes.tokens_per_s, peer?.four_lanes.tokens_per_s)} | ${f(ours?.one_lane.first_token_ms, 0)} / ${f(peer?.one_lane.first_token_ms, 0)} | ${f(ours?.load_ms, 0)} / ${f(peer?.load_ms, 0)} | ${ours ? `${mb(ours.peak_memory_bytes)} (${f(ours.peak_memory_bytes / ours.weight_bytes, 2)} ×)` : '—'} |`;
})).filter(Boolean);
// 8 bits at load beside F32 and transformers.js (fp32 and q8) on the same checkpoint.
const peerRows = [['threaded (2)', ''], ['single-threaded', '-single']].flatMap(([worker, suffix]) => {
  const [f32, q8, tf, tq] = ['f32', 'q8-at-load', 'tjs-fp32', 'tjs-q8'].map((n) => quantRead(`${n}${suffix}`));
  if (!q8) return [];
  return [['1 lane', 'one_lane'], ['4 lanes', 'four_lanes']].map(([lanes, key]) => {
    const v = (r) => r?.[key].tokens_per_s;
    const ratio = (a, b) => (v(a) != null && v(b) != null ? f(v(a) / v(b), 2) : '—');
    return `| ${worker} | ${lanes} | ${f(v(f32))} | ${f(v(q8))} | ${f(v(tf))} | ${f(v(tq))} | ${ratio(f32, tf)} | ${ratio(q8, tf)} | ${ratio(q8, tq)} |`;
  });
});
const peerMemory = [['threaded', ''], ['single-threaded', '-single']]
  .map(([worker, suffix]) => [worker, quantRead(`f32${suffix}`), quantRead(`q8-at-load${suffix}`)])
  .filter(([, a, b]) => a && b)
  .map(([worker, a, b]) => `${worker} ${mb(a.peak_memory_bytes)} → ${mb(b.peak_memory_bytes)}`)
  .join(', ');
const tjsVersion = (quantRead('tjs-q8') ?? quantRead('tjs-q8-single'))?.engine.split(' ').slice(0, 2).join(' ') ?? 'transformers.js (not run)';
const wllamaVersion = quantRead('wllama-smollm2-q8_0')?.engine ?? quantRead('wllama-smollm2-q8_0-single')?.engine ?? 'wllama';
const quantSection = !quantRows.length ? '' : `
## Quantized models (GGUF) beside wllama, and 8 bits at load

\`scripts/bench.sh\` runs this stage when \`bench/out/{smollm2,distilgpt2}-*.gguf\` exist
(\`bench/make_gguf.py\` writes them with llama.cpp's own converter and quantizer from the
SmolLM2-shaped and distilgpt2-shaped random checkpoints; SmolLM2's Q4_K_M at width 576 holds Q5_0
in every attention and gate/up matrix and Q8_0 in the tied embedding, as the hub's file does). Each file runs in the page's
worker (\`bench/browser.mjs FILE.gguf\`) and in ${wllamaVersion} (llama.cpp in wasm, CPU;
\`bench/wllama.mjs\`, which installs it from npm into \`bench/peers/\`) in the same Chromium, served
the same way, minutes apart. wllama runs one completion at a time, so its "4 lanes" are the
four lanes one after another (the no-repeat-3-gram lane greedy), where the page batches them.
First token: request → first streamed token, one lane. Load: bytes in memory → ready. wllama's
memory is not measured (its worker's heap is out of the page's reach). "—" under wllama: it failed
to take the file in three attempts ("Invalid typed array length: 1163217991", the GGUF magic
read as a length; 3.8.1 did so for every GPT-2 file here, and single-threaded for the 396 MB one).

| file | worker | 1 lane tok/s: ours | wllama | ours ÷ wllama | 4 lanes tok/s: ours | wllama | ours ÷ wllama | first token ms ours / wllama | load ms ours / wllama | our peak memory (× the file) |
|---|---|---|---|---|---|---|---|---|---|---|
${quantRows.join('\n')}

Kernels: Q8_0 and Q5_0 run on the engine's own wasm SIMD kernels (\`q8_0_kernel.rs\`,
\`q5_0_kernel.rs\`: each weight block read and widened once for all lanes, the sums in candle's
order, so the products are candle's bits), Q4_K and Q6_K on candle's; in the threaded worker
every quantized matrix is shared out over the threads in row blocks. F16 runs on the panel
kernel as a safetensors F16 checkpoint does. History (same files, 2 runs each): candle's kernels
alone (Q5_0 scalar, one thread) gave Q4_K_M 7.0 / 8.8 tok/s (1 / 4 lanes, single-threaded) and
Q8_0 16–19 / 21–24; the Q5_0 kernel and row blocks 17.0 / 21.6 and 22.6 / 26.4; the Q8_0 kernel
(candle's re-reads each weight block per input row and converts two f16 scales in software
per block) the table above. F16 halves were widened with a check for infinities and NaNs that
cost a third of a one-lane step; a matrix with none (checked at load) now skips it
(SmolLM2-shaped F16, one lane 11.9 → 18.2 tok/s single-threaded).
${peerRows.length ? `
8 bits at load on the distilgpt2-shaped F32 checkpoint (\`bench/browser.mjs MODEL --q8\`), beside
the same checkpoint in F32 and beside ${tjsVersion} (onnxruntime-web, WASM) on its ONNX export in
fp32 and q8 (\`bench/make_onnx.py\`: optimum-onnx, then onnxruntime's dynamic quantizer, 8-bit
weights; \`bench/transformers_js.mjs\`, installed from npm into \`bench/peers/\`, its wasm served from
there), minutes apart. transformers.js runs the four lanes one \`generate()\` after another.
Tokens/s:

| worker | lanes | ours F32 | ours Q8_0 (at load) | transformers.js fp32 | transformers.js q8 | ours F32 ÷ tjs fp32 | ours Q8_0 ÷ tjs fp32 | ours Q8_0 ÷ tjs q8 |
|---|---|---|---|---|---|---|---|---|
${peerRows.join('\n')}

Our peak memory, F32 → Q8_0: ${peerMemory}.
` : ''}`;

console.log(`# Benchmarks

Measured by \`scripts/bench.sh\` (${new Date().toISOString().slice(0, 10)}) in ${rounds.length} rounds on the same machine; in each
round every engine runs once (${rounds[0].native?.runs ?? '?'} timed runs each, medians). The results table gives the median of
each figure over the rounds; each target ratio is computed within a round (engines measured minutes
apart, not tens of minutes) and the table gives the median of the rounds' ratios with their range.
Timing on this shared machine is noisy: read the ratios, not the absolute numbers.

## Method

- **Checkpoint**: random weights with distilgpt2's exact shapes (6 layers, 12 heads, 768 wide, 50257
  vocabulary, 1024 positions; F32, ${mb(native?.weight_bytes)}), made by \`ntl-bench make-checkpoint\`, never committed.
  Values do not change speed.
- **Workload**: prompt "${PROMPT}" (8 tokens), the page's four default lanes
  (${LANES.map((l) => '`' + JSON.stringify(l) + '`').join(', ')}), ${NEW_TOKENS} new tokens each
  (\`min_new_tokens\` = ${NEW_TOKENS}, so no lane stops early), 20-row step tables recorded as on the page.
- **Engines**: the native \`ntl-bench\` (this repo's engine, release build, one thread); the page's engine —
  the same worker wasm the page uses, in headless ${chromium}, driven through the worker protocol by
  \`bench/browser.mjs\`, figures as the worker reports them: the threaded worker on a cross-origin
  isolated page (${browser?.threads ?? '?'} threads here, as \`scripts/serve.mjs\` serves the app) and the single-threaded
  worker on a page that is not isolated (static hosts without headers, embeds in non-isolated pages); the
  same two workers in headless ${firefoxVersion} (Debian's firefox-esr, driven by \`puppeteer-core\` over WebDriver BiDi); HF \`transformers\` \`generate()\` ${hf ? `(torch ${hf.torch}, 2 threads; one call per lane: HF cannot batch different configs)` : '(not run: no torch)'}.
- **Figures**: aggregate new tokens/s over the four lanes; one step of four lanes batched vs one lane alone;
  time to first token (request → first streamed step: prefill and the first decode); load time from bytes in
  memory to ready; peak memory (native: the process's peak RSS; browser: the worker's wasm memory, which only grows).
- Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ${rustc}.

## Results

| engine | 4 lanes: tokens/s | 4-lane step (ms) | 1-lane step (ms) | step 4 ÷ 1 | first token, 1 lane (ms) | 64 tokens, 1 lane (ms) | load (ms) | peak memory |
|---|---|---|---|---|---|---|---|---|
${row('native (ntl-bench)', native)}
${row(`browser, threaded worker (${browser?.threads ?? '?'} threads)`, browser)}
${row('browser, single-threaded worker', single)}
${firefox ? row(`Firefox ESR, threaded worker (${firefox.threads} threads)`, firefox) : '| Firefox ESR | not run | | | | | | | |'}${firefoxSingle ? '\n' + row('Firefox ESR, single-threaded worker', firefoxSingle) : ''}
${hf ? `| HF transformers | ${f(hf.four_lanes.tokens_per_s)} | ${f(hf.four_lanes.step_ms)} | ${f(hf.one_lane.step_ms)} | ${f(hf.four_lanes.step_ms / hf.one_lane.step_ms, 2)} | — | ${f(hf.one_lane.total_ms, 0)} | ${f(hf.load_ms, 0)} | — |` : '| HF transformers | not run | | | | | | | |'}

## Targets

Issue #18's targets (R1, R3 and R5 per worker; R2 and R4 as before).

| ratio | target, threaded | target, single-threaded | threaded worker (isolated page) | single-threaded worker |
|---|---|---|---|---|
${target('R1: browser 4-lane throughput ÷ HF transformers', 'r1', ['≥ 3.0', (v) => v >= 3], ['≥ 2.0', (v) => v >= 2])}
${target('R2: browser ÷ native engine', 'r2', ['≥ 0.7', (v) => v >= 0.7])}
${target('R3: one 4-lane step ÷ one 1-lane step (browser)', 'r3', ['≤ 1.5', (v) => v <= 1.5])}
${target('R4a: time to first token ÷ 64 tokens, 1 lane (browser)', 'r4t', ['≤ 0.15', (v) => v <= 0.15])}
${target('R4b: peak worker memory ÷ weight bytes', 'r4m', ['≤ 1.3', (v) => v <= 1.3])}
${target('R5: one lane, time per token, browser ÷ HF transformers', 'r5', ['≤ 0.75', (v) => v <= 0.75], ['≤ 1.0', (v) => v <= 1])}
${llamaSection}${quantSection}${peakSection}
${pageSection}${sandboxSection}${treeSection}
## Levers tried (measured 2026-11-29/30 on this machine; exactness tests green with each)

| lever | before | after | kept |
|---|---|---|---|
| top-p sorts only the tokens still in play (after top_k=50: 50, not 50257); nucleus sizes sort only the head they need | native, 4 sampling lanes × 64 tokens: 13.6 s | 9.1 s (both measured while a fuzzer shared the CPU) | yes |
| the worker keeps the downloaded file in JS memory; the engine reads it tensor by tensor into the f32 weights | ≥ 2.0 × weights in wasm memory by construction (whole file copied in, then f32 weights) | 1.13 × (measured) | yes |
| wasm \`+simd128\` (candle's SIMD helpers, auto-vectorised decoding loops; gemm had SIMD kernels already) | browser 1-lane step 78.6 ms, 4-lane 159.7 ms | 63.8 ms, 163.6 ms | yes |
| wasm only: a small-batch kernel for the tied output head (\`simd128\`, one pass over the 154 MB \`wte\` for up to four rows, instead of candle's single-threaded gemm) | browser 1-lane step 63.8 ms, 4-lane 163.6 ms | 54.6 ms, 136.9 ms (3 runs); natively it lost to candle's two-thread gemm (4-lane 76 → 150 ms), so native keeps gemm | yes (wasm) |
| wasm: the same idea for the blocks' Conv1D products (\`[in, out]\` weights, 16 output columns × 4 rows in SIMD registers, each weight loaded once) | browser 4-lane step 136.9 ms, 1-lane 54.6 ms | 204.4 ms, 85.3 ms (3 runs): slower than candle's gemm — 21 live SIMD values spill on x86's 16 registers and the column blocks walk \`W\` with a large stride | no (reverted) |
| where the 4-lane step goes, first attempt: four greedy lanes (no knobs) instead of the default four | 4-lane step 163.6 ms | 154.7 ms | — (misleading: greedy lanes pay most of the per-lane costs too; see the in-step timers below) |
| wasm: the blocks' Conv1D weights transposed to \`[out, in]\` once at load and run through the head's small-batch kernel, reworked to 4 rows × 2 columns per pass with row and column counts as constants (8 accumulators + 3 operands fit x86's 16 SIMD registers; weights read contiguously) | browser 4-lane step 136.9 ms, 1-lane 58.1 ms | 90.2 ms, 50.0 ms (3 runs); load +0.2 s for the transposes | yes (wasm) |
| in-step timers (temporary, not committed) after that: 4-lane step ≈ 54 ms forward + 32 ms decoding the four lanes + 4 ms other | — | the funnel's eleven 50k-token softmaxes (libm \`expf\` is a scalar call in wasm), the nucleus sizes (a full comparison sort on flat rows), 50k uniforms per sampling lane, and a 4 ms timer clamp per step | — |
| nucleus sizes by an LSD radix sort of the positive probabilities (three linear passes) | nucleus sizes, 4 lanes × 64 steps: 894 ms | 170–188 ms | yes |
| a portable Cephes-style \`exp\` (within 1 ulp, same bits natively and in wasm), then spelled out in \`simd128\` (the compiler kept the scalar loop scalar; a wasm test pins the bits to the scalar version) | softmaxes, 4 lanes × 64 steps: 653 ms; 4-lane step 75.7–78.7 ms before the \`simd128\` version | 225 ms with the scalar version; 67.3–67.6 ms with \`simd128\` | yes |
| uniforms drawn only for tokens a sampling lane can pick (seeking the ChaCha stream: the same values as the full draw) | picks, 4 lanes × 64 steps: 120 ms | 55 ms | yes |
| entropy: a Cephes-style \`ln\` per token | entropies, 4 lanes × 64 steps: 172 ms (libm) | 329 ms | no (reverted) |
| entropy from each softmax's own sums (\`ln Z − Σ p·(s − max)\`, no log per token); a step table's top 20 by one scan keeping a short sorted list | softmax + entropy 397 ms, top-20 55 ms | softmax + entropy 300 ms, top-20 38 ms | yes |
| the worker yields between steps with a message to itself instead of \`setTimeout(0)\` (browsers clamp nested timeouts to ≥ 4 ms) | 4-lane step 67.5 ms, 1-lane 40.5 ms | 62.3 ms, 37.0 ms | yes |
| \`top_k\`'s k-th largest by one scan (no copy of the row); nucleus sizes from a value histogram instead of the radix sort | — | histogram: 163–270 ms vs radix 170–188 ms (4 lanes × 64 steps) | \`top_k\` scan yes; histogram no |
| four partial sums/maxima in the softmax (shorter dependency chains) | observe 360 ms (4 lanes × 64 steps) | 401 ms (a slower minute for the forward pass too): no clear gain | no |
| the KV cache extended in place (buffers with spare positions; the newest value writes the next ones, any older value copies first) instead of \`cat\` copying it every step | browser, 256 new tokens: 4-lane step 62.6 ms, 1-lane 35.0 ms; 64 tokens: 60.7, 35.5 | 65.5, 37.7; 61.9, 36.5 (attention over the strided views cost what the copies saved) | no |
| **threads**: a threaded build of the worker (helper workers on its shared memory) taking a share of each small-batch kernel's output columns (same sums per column, so the same bits) | single-threaded worker, same build: 4-lane step 58.3 ms, 1-lane 34.2 ms | 2 threads: 38.7–40.1 ms, 20.6–21.1 ms (2 runs each) | yes (isolated pages) |
| the lanes decide their steps concurrently (each thread takes the next lane; events still go out in lane order) | 4-lane step 38.7–40.1 ms | 34.8 ms | yes |
| GPT-2's GELU (candle's formula, same bits) shared out over the threads | 4-lane MLP activations 117 ms per 64 steps (in-step timers) | 78 ms | yes |
| the output kernel's 4-row tile widened to 3 columns (12 accumulators) | — | interleaved runs within noise of the 2-column tile | no |
| softmax rows with ≤ 1/16 of the tokens left (after \`top_k\`/\`top_p\`) exponentiate only those (the other terms are exactly 0, so the same bits) | softmaxes, 4 lanes × 64 steps: 320 ms | 285 ms | yes |
| the softmax's two f64 sums in four running parts | 285 ms | 326 ms (no gain; it would also have changed the sums' bits) | no |
| the SIMD \`exp\` clamps with \`f32x4_pmin\`/\`pmax\` (wasm's \`min\`/\`max\` NaN and signed-zero rules cost several x86 instructions each; NaN is restored by the last select, so the same bits) and the row maximum by compare-and-select in eight parts | softmaxes 285 ms (4 lanes), 46 ms (1 lane) per 64 steps | 186 ms, 31 ms | yes |
| nucleus sizes: one walk of the sorted row for all three masses, the radix digits counted in one pass | nucleus sizes 157 ms (4 lanes × 64 steps) | 154 ms (no measurable change; kept, it is no more code) | yes |
| the page: its state out of \`App\` (plain-Rust modules), each lane's result an \`Rc\` copied on write with its steps shared (\`Rc<Step>\`) instead of all four lanes deep-cloned into props at every step, stale worker messages not redrawn, lane configs parsed once | the page's main thread per streamed step, 4 lanes × 64 tokens (bundled model, \`bench/page_step.mjs\`): 6.7 ms | 5.0 ms (separate runs) | yes |
| the page: callbacks made once (closures made in every view re-render gave every lane new props, so all four re-rendered at each step) | 5.0 ms | 4.6–5.7 ms: within noise, the cost was elsewhere | yes (it costs nothing) |
| the page: token spans and plot points keyed, the points in an element of their own (yew matches unkeyed children from the end, so each appended step rewrote every span's and every point's attributes: in a 4 × 60-token run 29,100 \`cx\` and 7,275 span \`data-step\` writes, and every polyline was rebuilt), and the plots' axes held still while a run streams (the planned length, a round top) so drawn points do not move | 4 × 64 / 4 × 200 tokens: 5.0 / 4.3 ms (script 3.6 / 3.0) | 3.8 / 4.0 ms (script 1.7 / 2.7); 984 \`cx\` writes and 240 \`data-step\` writes | yes |
| the page: each token span and plot point a component (an unchanged one is compared, not formatted again) | 3.8 / 4.0 ms (script 1.7 / 2.7) | 3.7 / 4.1 ms (script 1.5 / 2.1) | yes |
| the page: \`contain: content\` on the lanes and the charts | paint 558 ms in a 4 × 120-token run (Chromium trace) | 563 ms | no |
| (2026-12-01, issue #18; in-step timers, single-threaded worker, Chromium, per 64 steps) the small-batch kernel's loop two blocks of four per turn (half the loop's own instructions, the same additions in order) | head, 4 rows: 1300 ms | 1300 ms | no (reverted) |
| the kernel's shapes measured one by one (a copy of the kernel in a bare wasm module over \`wte\`'s shape, Chromium, medians of 7 interleaved rounds): one row × **8** columns (was 4: eight weight streams in flight read faster), four and three rows × **1** column where \`k\` ≤ 1024 (was 2: one sequential stream past rows that stay in L1); \`mlp.c_proj\` (\`k\` = 3072: four rows are 48 KB, past L1) measured slower with one column, so it keeps two. No shape changes any column's sum (same bits) | one row 11.9 ms, four rows 22.8 ms over \`wte\`; in the engine, 4-lane forward 2.91–3.00 s, 4-lane step ÷ 1-lane step 2.08–2.14 | 9.7 ms, 16.5 ms; 4-lane forward 2.24–2.49 s, 4 ÷ 1 1.62–1.71 | yes |
| a scalar read 4 KB or 16 KB ahead in each weight row, once per cache line, in the 4-row pass (wasm has no prefetch instruction) | 4 rows over \`wte\`: 16.5 ms (one column), 22.8 ms (two) | 18.9–19.6 ms, 20.1–21.5 ms | no |
| F16/BF16 checkpoints' matrices kept 16-bit in wasm memory and widened as the kernel reads them (bf16: a shift; f16: the bits shifted into place and scaled by 2¹¹², exact for subnormals too; \`tests/kernel.rs\` checks every 16-bit value and the sums against the f32 widening, natively and in wasm). Measured on a BF16 copy of the bench checkpoint (156 MB), Chromium, 3 runs each, against the F32 file (what a BF16 file cost before: it was widened at load) | peak worker memory 357 MB; 1-lane step 19.5 ms threaded, 23.3 single-threaded; 4-lane 28.7, 43.6 | 202 MB (1.29 × the file); 1-lane 15.1, 20.2; 4-lane 31.4, 41.9 (four rows are compute-bound, so the halved bytes do not show there) | yes |
| **relaxed SIMD** \`f32x4.relaxed_madd\` in the kernel (Chromium 156 and Firefox ESR 153 here both validate it; on x86 with FMA it is fused: one rounding instead of two, so the bits differ from the plain build's, and between machines). Built as a third and fourth worker (\`+relaxed-simd\`, the same flags otherwise) and benchmarked against the plain ones in alternating runs | Chromium, threaded: 4-lane step 39.3 / 38.2 ms, 1-lane 23.6 / 22.2; single-threaded: 56.8 / 62.8, 29.9 / 31.8; kernel alone, 4 rows × 1 column over \`wte\`: 16.5 ms | threaded 34.9 / 35.1, 21.9 / 21.8; single-threaded 56.2 / 56.8, 29.8 / 31.1; kernel alone 14.8 ms. This CPU issues multiplies and adds on separate pipes, so fusing them shortens the chains' latency but adds no throughput: the gain shows only where two threads leave the kernel compute-bound | not yet: −10 % on the threaded 4-lane step only, for two more worker builds (≈ 5 min each on a fresh machine), feature detection at load, and seeded replays that would differ between machines with and without FMA |
| (2026-12-01, second session; wasm in Node's V8 on this machine, old and new code in one process, best of 5 × 50–100 calls on a flat 50,257-token row) the funnel keeps each softmax as its terms \`e^(s − max)\`: a knob that only removes tokens (found by comparing its scores with the ones before, bit for bit) subtracts the removed tokens' terms from the sums, or sums the few left when most are gone; a whole-row \`exp\` only for the raw logits and for knobs that change values (temperature, penalties) | \`observe\` per lane step: greedy 0.70 ms, \`temperature\` 0.7 + \`top_p\` 0.9 1.58, \`no_repeat_ngram_size\` 3 1.06, \`temperature\` 1.5 2.12 | 0.43, 1.17, 0.48, 1.46; the same probabilities bit for bit on these rows (a subtraction may differ from a new sum in its last f64 bits) | yes |
| nucleus sizes without a sort: one pass sums the positive probabilities into buckets of equal leading bits (sign, exponent, five mantissa bits), a second gathers the values of the buckets where 50/90/95 % are crossed, and only those are sorted and walked; the running sum is torch's CPU \`cumsum\` (f32 values added in f64) | LSD radix sort: 0.87 ms per call on a flat row, 0.53 on a peaked one | 0.45, 0.18; the same sizes (a test checks any mass against a full sort) | yes |
| a step table's top 20: eight values at a time compared with the list's last as \`total_cmp\` integer keys before any is looked at alone | 0.25 ms per scan | 0.05–0.09 | yes |
| the three knob lanes and a greedy lane decided together (a model that returns stored rows: decisions only), 4 lanes × 64 steps, best of 6 | 0.61 s | 0.39–0.52 s (this machine's minutes vary by a quarter) | — |
| the kernel's sums split in two interleaved sets for three and four rows (eight add chains in flight instead of four; different bits for those row counts) | four rows over \`wte\`: 16.7–25.6 ms | 23.0–40.8 ms | no (reverted; a test now pins the order the kernel adds in, natively and in wasm) |
| (2026-12-01, third session; issue #19; SmolLM2-135M's shapes, BF16, Chromium, \`BENCH_DIST\` A/B, three interleaved pairs of runs, medians) Llama blocks: q/k/v and gate/up stacked into one matrix each at load (one kernel pass and one split over threads instead of three and two; each output the same dot product), and grouped heads attend without \`repeat_kv\`'s copies (a group's query heads as rows of their shared key/value head) | threaded: 1-lane step 47.7 ms, 4-lane 79.9 ms; single-threaded: 69.3, 101.5 | threaded: 41.9, 66.9 (−12 %, −16 %); single-threaded: 67.4, 103.6 (within this machine's noise: its runs spread by ±10 % today) | yes |
| (2026-12-01, fourth session; issue #18, R3) the weights packed at load into panels of eight output columns, \`[k][8]\` contiguous, and a 4-row × 8-column kernel that broadcasts one \`x\` value per row and multiplies it into two weight vectors (8 accumulators; 16 operations per 6 loads instead of 8 per 5; each column summed in \`k\` order, so other bits than today's); also with relaxed SIMD's \`relaxed_madd\` (fused on this CPU). A bare wasm module over \`wte\`'s shape in Chromium, medians of 9 calls per round, two sessions of 3 and 6 rounds | four rows streamed from memory, today's kernel: 22.0–24.3 ms (first session), 21.0–27.7, median ≈ 25 (second); one row (eight columns): 13.4–21.3, median ≈ 15.6 | panel: 19.8–25.4 ms (first), 17.8–25.0, median ≈ 22 (second: −12 %, four rows ÷ one row 1.6 → 1.4); panel with \`relaxed_madd\`: 17.0–21.4, median ≈ 18.8 (÷ one row 1.2). From cache: 15.0–22.1 GFLOP/s today's kernel, 19.9–22.1 panel, 26.4–27.9 panel fused. The machine's minutes vary by a third, so the gain needs the real engine's A/B | not yet: the next R3 step (every matrix packed, the tied embedding read from panels, 16-bit panels, one row over panels, new summation order pinned) |
| (2026-12-02; issue #18) the panels built into the engine: every matrix packed at load (GPT-2's Conv1D from \`[in, out]\`; \`nn.Linear\`, \`wte\` and Llama's stacked projections rearranged in place, so the embedding is never held twice), the tied embedding's lookup read from the head's panels, 16-bit panels widened as read, each chunk of four rows interleaved (\`[k][4]\`: one place per input step), one row over four panels at once (8 accumulators), two rows over two, and a long prompt's rows through the same kernel a group of eight panels at a time (each group stays in cache while every four rows pass) instead of candle's gemm. Each column is summed in blocks of 64 inputs, unfused, and the blocks' sums in turn (\`tests/kernel.rs\` pins it natively and in wasm): summed in one chain of 768, the sandbox's one-pass recomputation of a beam step differed from the recorded step by 1.2e-6 in a probability (the old four partial sums stayed under 1e-6; blocks of 64 do too). \`BENCH_DIST\` A/B in Chromium, 3 runs each, two interleaved pairs per worker | single-threaded: 4-lane step 74.4 / 72.4 ms, 1-lane 45.6 / 46.3; threaded: 47.1 / 47.0, 35.8 / 32.8; first token of four lanes 92 ms single-threaded; a 43-token prompt's first token 258–459 ms, a 630-token one 4.0–5.4 s (single-threaded); peak memory 372.4 MB | single-threaded: 61.0 / 58.1 (−19 %), 1-lane 30.1 / 27.4 (−37 %); threaded: 47.7 / 42.2, 31.5 / 26.2 (−16 %); first token 61–64 ms; 222–275 ms and 3.4–4.3 s (before the interleaving); 372.4 MB. The kernel alone over \`wte\` (one thread, wasm test build): one row 11–17 ms over four panels at once, 13–23 over two, 14–23 over one; four rows 19–25 over one panel, 23–28 over two (16 accumulators spill); from cache (a 128-column matrix 393 times) four rows 11–19 ms (≈ 16–28 GFLOP/s of the ≈ 46 the SIMD units do), one row 3–6. So one lane is near the read bandwidth and four rows are bound by the loop's own instructions; four lanes ÷ one lane rises (1.6 → 2.0–2.1 single-threaded, 1.3–1.4 → 1.5–1.6 threaded) because one lane gained most | yes (R1 and R5 gain; R3 as a ratio does not) |
| (2026-12-02, second session; issue #18, R3) where the panel kernel's steps go: in-step timers (temporary, not committed), Chromium, per 64 steps, 3 runs each, in a slow minute of this machine (the single-threaded 4-lane step 66–76 ms against 58–61 in the bench above) | — | single-threaded: one lane 2.02–2.32 s forward, 0.09–0.11 s deciding, 0.01–0.03 s posting the steps; four lanes 3.61–4.13 s forward, 0.49–0.54 s deciding, 0.03–0.04 s posting. Threaded: one lane 1.65–1.79 s forward, 0.10 s deciding; four lanes 2.57–2.87 s forward, 0.30–0.31 s deciding. So the forward pass alone is 1.78 × one lane's single-threaded and 1.58 × threaded, and the knob lanes' decisions add ≈ 0.2 to the single-threaded ratio. The decisions alone (stored rows, wasm in Chromium, four lanes × 64 steps): 0.54–0.57 s, of which the funnel 0.31 s, the step records (table, rank, nucleus sizes) 0.17 s, draws and picks 0.08 s; the greedy lane alone 0.09 s | — |
| what bounds the four-row pass: a bare wasm module over \`wte\`'s shape (\`k\` 768, ≈ 50,100 columns, f32), Chromium, medians of 9 calls per round, 5–6 rounds; rows × panels read at once | — | one row over one panel (one weight stream) 19.6–22.8 ms, three rows 20.5–25.3, four rows 21.5–25.3; one row over four panels (four streams) 12.7–16.3, two rows over two 16.0–17.6 (one round 24.7). The pass's time follows how many weight streams it reads at once more than its arithmetic: one sequential stream reads ≈ 7–8 GB/s whatever the rows, four ≈ 11, and four rows cannot read more panels at once without more accumulators than x86's 16 SIMD registers hold | — |
| four rows over more streams, or with fewer instructions, each giving the engine kernel's bits (checked bit for bit): (a) the blocks of 64 inputs of 2, 4 or 8 panels in turn; (b) panels of four columns, four rows over two, three or four of them at once (2–4 streams, 8–16 accumulators); (c) four rows as two passes of two rows over a group of 16 such panels kept in L2; (d) a block's 64 inputs stored a cache line apart (twice the lines in flight in the out-of-order window); (e) \`x\` stored pre-splatted (loads instead of broadcasts) | four rows over one panel: 19.8–35.0 ms in the same rounds | (a) 23.7–37.7 ms; (b) 21.4–36.8; (c) 22.8–29.0; (d) 19.4–26.3; (e) 28.4–41.1 (from L1: the same as broadcasts) | no (none built into the engine) |
| relaxed SIMD's fused multiply-add in the four-row pass, over one to four streams (panels of eight or four columns, 8–16 accumulators), same module and rounds | four rows, plain: 19.8–31.2 ms | fused: 17.0–29.7 ms (four streams best, 15.9–23.6): the kernel alone stays ≈ 1.4–1.6 × the one-row pass | no: with the knob lanes' decisions a single-threaded four-lane step would still be ≈ 1.7 × one lane's |
| what one core issues (probes: one panel of \`k\` = 256 in L1, 20,000 passes, per input step of four rows × eight columns) | — | 8 multiplies + 8 adds with 2 weight loads: 2.0–2.2 ns (≈ 5.5 cycles, ≈ 30 GFLOP/s); the 8 adds alone 1.5–1.8 ns, the 8 multiplies alone 1.5–1.7 (in three rounds of four); with the four broadcasts of \`x\` the kernel needs: ≈ 3.2 ns (≈ 20 GFLOP/s). V8's loop is ≈ 30 instructions per input step (four broadcast loads, four address sums, two weight loads, sixteen arithmetic, the count, a stack check every second step): the loop is bound by the instructions around its arithmetic, not by the two multiply and two add pipes the peak above times | — |

Where it stands (2026-12-02, the panel kernel; the in-step timers and probes above): one lane's
step reads the weights once at ≈ 94 % of what one thread reads. Four lanes' forward pass costs
1.8 × one lane's single-threaded and 1.6 × threaded: the four-row pass reads each panel as one
stream (≈ 7–8 GB/s against ≈ 11 for four streams) while it issues ≈ 30 instructions per input
step, so its reading and its arithmetic add up instead of overlapping, and the three knob lanes'
decisions add ≈ 0.2 more. Every four-row shape tried keeps the kernel alone at ≥ 1.4 × the one-row
pass, fused multiply-add included; wasm has no prefetch instruction to start the stream ahead of
the arithmetic. So R3 ≤ 1.5 in the single-threaded worker is below what this machine does with
these kernels.

**Threads: how they are built and what they cost.** The worker is built twice: by Trunk as
before (single-threaded), and by \`scripts/build-threaded-worker.sh\` with a pinned nightly
(\`scripts/nightly-toolchain\`, installed with \`rust-src\` by \`scripts/setup.sh\`), \`-Z build-std\`
and \`+atomics\`, linked with shared, imported memory (\`--shared-memory --import-memory
--max-memory=4 GiB\` and the \`__wasm_init_tls\`/\`__tls_*\` exports), then wasm-bindgen's
\`no-modules\` output and \`wasm-opt\`: ≈ 2.5–3 min cold, ≈ 1.5 min warm (mostly \`wasm-opt\`).
The worker asks the page for \`min(cores, 4) − 1\` helper workers (\`worker_mt_helper.js\`: the
page starts them, since Firefox ESR's \`Worker\` constructor inside a worker sometimes never
returns) that instantiate the same module on its memory and wait on an atomic for work (\`crates/parallel\`: a job is a
range split into one part per thread; helpers spin briefly, then sleep in
\`memory.atomic.wait32\`). candle itself stays single-threaded (its matmul asks for threads only
when \`num_cpus\` reports more than one, which it does not in wasm), so the split is ours: the
small-batch kernel's output columns, the lanes' decisions, GELU. Every split leaves each number's
arithmetic unchanged, and a browser test compares whole run documents (ids, text, every
probability and funnel figure, beams) from the two workers for every kind of lane.
Shared memory needs a cross-origin isolated page: \`scripts/serve.mjs\` sends
\`Cross-Origin-Opener-Policy: same-origin\`, \`Cross-Origin-Embedder-Policy: require-corp\` (the
model hub's files come with CORS, which that allows) and \`Cross-Origin-Resource-Policy:
cross-origin\` (so an isolated course page may still embed the app). Hosts that cannot set
headers, and iframes in pages that are not isolated, get the single-threaded worker — the page
picks by \`crossOriginIsolated\`, falls back if the threaded worker cannot start, and shows the
thread count in the model line. Native stays single-threaded in this engine's own code (candle's
gemm uses both cores there).
`);
