// The machine's peak as the engine's kernels could reach it, measured in the
// browser the page runs in: SIMD multiply-add throughput with no memory
// traffic (GFLOP/s) and the rate one thread, then every thread at once, reads
// 256 MB it has written (GB/s; the weights are read, never written, per
// step). bench/report.mjs sets the kernels' own figures against these.
//   node bench/peak.mjs [--firefox]   (prints one JSON object)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchPage } from './bench_page.mjs';

const firefox = process.argv.includes('--firefox');
const wasm = join(tmpdir(), `ntl-peak-${process.pid}.wasm`);
execFileSync('tests/e2e/node_modules/.bin/wasm-as', ['--enable-simd', 'bench/peak.wat', '-o', wasm]);
const bytes = [...readFileSync(wasm)];
const threads = Math.min(cpus().length, 4);
const { page, close } = await benchPage(null, false, { firefox });
const result = await page.evaluate(async ({ bytes, threads }) => {
  // Each part runs in its own worker with its own memory, all started together.
  const body = `onmessage = async ({ data: { bytes, what } }) => {
    const { instance } = await WebAssembly.instantiate(new Uint8Array(bytes));
    const e = instance.exports;
    const best = (f) => { let m = Infinity; for (let i = 0; i < 5; i++) { const t = performance.now(); f(); m = Math.min(m, performance.now() - t); } return m; };
    if (what === 'flops') { const n = 20000000; e.muladd(1000, 0.9999999); postMessage(n * 48 / best(() => e.muladd(n, 0.9999999)) / 1e6); return; }
    const size = 256 << 20;
    new Uint8Array(e.memory.buffer).fill(1, 0, size); // untouched pages would all read the one zero page
    e.read(1 << 17, 1);
    postMessage(size * 2 / best(() => e.read(size / 8, 2)) / 1e6);
  };`;
  const url = URL.createObjectURL(new Blob([body], { type: 'text/javascript' }));
  const run = (what, n) => Promise.all(Array.from({ length: n }, () => new Promise((resolve) => {
    const w = new Worker(url);
    w.onmessage = ({ data }) => { w.terminate(); resolve(data); };
    w.postMessage({ bytes, what });
  })));
  const flops1 = (await run('flops', 1))[0];
  const read1 = (await run('read', 1))[0];
  const flopsN = await run('flops', threads);
  const readN = await run('read', threads);
  return {
    threads,
    simd_gflops_1: flops1, simd_gflops_all: flopsN.reduce((a, b) => a + b, 0),
    read_gbs_1: read1, read_gbs_all: readN.reduce((a, b) => a + b, 0),
  };
}, { bytes, threads });
await close();
console.log(JSON.stringify({ browser: firefox ? 'firefox' : 'chromium', ...result }));
