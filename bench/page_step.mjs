// The page's own cost per streamed step: how long the main thread works (the
// worker's messages parsed, the state updated, the view re-rendered and the
// DOM patched) for each step the worker streams, on the bundled model, four
// lanes. Chromium's Performance.getMetrics `TaskDuration` counts main-thread
// tasks only, so the worker's own compute is not in it.
//   node bench/page_step.mjs [DIST] [RUNS] [TOKENS...]   (DIST defaults to dist/)
import { join, resolve } from 'node:path';
import { start, modelReady, setKnob } from '../tests/e2e/harness.mjs';
import { median } from './workload.mjs';

const [distArg, runsArg, ...tokensArg] = process.argv.slice(2);
const dist = resolve(distArg || 'dist');
const RUNS = Number(runsArg || 3);
const TOKENS = tokensArg.length ? tokensArg.map(Number) : [64, 200];

const env = await start({ isolated: false, dir: dist });
const page = await env.open('?model=bundled');
await modelReady(page);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Performance.enable');
const metric = async (name) => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === name).value;

const results = {};
for (const tokens of TOKENS) {
  // Every lane runs exactly `tokens` steps (min = max), whatever it samples.
  for (let lane = 0; lane < 4; lane++) {
    await setKnob(page, lane, 'max_new_tokens', tokens);
    await setKnob(page, lane, 'min_new_tokens', tokens);
  }
  const perStep = [];
  const script = [];
  for (let r = 0; r < RUNS + 1; r++) {
    const before = Number(await page.getAttribute('.page', 'data-run'));
    const [t0, s0] = [await metric('TaskDuration'), await metric('ScriptDuration')];
    await page.click('[data-testid="run"]');
    // Polled every 250 ms, not every frame, so the waiting itself costs the page little.
    await page.waitForFunction((prev) => {
      const d = document.querySelector('.page')?.dataset;
      return d && Number(d.run) > prev && d.running === 'false';
    }, before, { polling: 250, timeout: 600_000 });
    const [t1, s1] = [await metric('TaskDuration'), await metric('ScriptDuration')];
    const steps = 4 * tokens;
    if (r === 0) continue; // warm-up
    perStep.push(((t1 - t0) * 1000) / steps);
    script.push(((s1 - s0) * 1000) / steps);
  }
  results[tokens] = { main_thread_ms_per_step: median(perStep), script_ms_per_step: median(script), runs: perStep };
}
await env.close();
console.log(JSON.stringify({ dist: join(dist), runs: RUNS, lanes: 4, results }, null, 1));
