// The WebKit side of the browser tests: Debian's WebKitGTK — Safari's engine
// family — driven through its W3C WebDriver (WebKitWebDriver) with
// selenium-webdriver, its MiniBrowser headless under Xvfb. Same served site
// as harness.mjs; the helpers mirror its names so a test reads the same in
// every browser.
import { Builder, By } from 'selenium-webdriver';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { ROOT } from './harness.mjs';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER || '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

const freePort = () => new Promise((ok) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => ok(port)); });
});

/// One MiniBrowser session and two servers of dist/: `isolated` (COOP + COEP)
/// and `plain`. `cuts` holds paths whose next download breaks off half-way;
/// `asked` counts the requests for each path.
export async function startWebKit() {
  const cuts = new Set();
  const asked = new Map();
  const cut = (path) => {
    asked.set(path, (asked.get(path) || 0) + 1);
    return cuts.delete(path);
  };
  const servers = await Promise.all([true, false].map((isolated) => serve(join(ROOT, 'dist'), 0, { isolated, cut })));
  const [isolated, plain] = servers.map((s) => `http://127.0.0.1:${s.address().port}/`);
  const port = await freePort();
  // Its own process group, so closing ends Xvfb, the driver and the browser.
  const driverProcess = spawn('xvfb-run', ['-a', '-s', '-screen 0 1600x1200x24', WEBKIT_DRIVER, `--port=${port}`], { detached: true, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${url}/status`).then((r) => r.ok, () => false);
    if (up) break;
    if (i > 100) throw new Error(`WebKitWebDriver did not answer on ${url} in 20 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const driver = await new Builder().usingServer(url).withCapabilities({
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
  }).build();
  await driver.manage().setTimeouts({ script: 600_000, pageLoad: 120_000 });
  await driver.manage().window().setRect({ width: 1500, height: 1000 });
  const caps = await driver.getCapabilities();
  const close = async () => {
    await driver.quit().catch(() => {});
    try { process.kill(-driverProcess.pid); } catch { /* already gone */ }
    for (const s of servers) s.close();
  };
  return { driver, isolated, plain, cuts, asked, close, version: caps.get('browserVersion') };
}

/// Runs `fn` (a function of one argument) in the page and returns its value.
export const evaluate = (driver, fn, arg) => driver.executeScript(`return (${fn})(arguments[0]);`, arg);

/// Waits until `fn(arg)` in the page is truthy; says `what` if it never is.
export async function waitFor(driver, fn, arg, what, timeout = 120_000) {
  try {
    return await driver.wait(() => evaluate(driver, fn, arg), timeout);
  } catch (e) {
    throw new Error(`WebKit: waited ${timeout / 1000} s for ${what}: ${e.message}`);
  }
}

export const text = (driver, css) => evaluate(driver, (css) => document.querySelector(css)?.textContent ?? null, css);
export const attr = (driver, css, name) => evaluate(driver, ([css, name]) => document.querySelector(css)?.getAttribute(name) ?? null, [css, name]);
export const click = (driver, css) => evaluate(driver, (css) => { const e = document.querySelector(css); if (!e) throw new Error(`no ${css}`); e.click(); return true; }, css);

export async function modelReady(driver, timeout = 120_000) {
  await waitFor(driver, () => document.querySelector('[data-testid="model-status"]')?.dataset.state === 'ready', null, 'the model to be ready', timeout);
}

export const dataRun = (driver) => evaluate(driver, () => Number(document.querySelector('.page').dataset.run));

/// Waits until a run newer than `prev` has finished in every lane.
export async function waitRunDone(driver, prev, timeout = 300_000) {
  await waitFor(driver, (prev) => {
    const run = document.querySelector('.page')?.dataset;
    const s = [...document.querySelectorAll('[data-testid="lane-status"]')];
    return run && Number(run.run) > prev && run.running === 'false' && s.length > 0 && s.length === document.querySelectorAll('section.lane').length && s.every((e) => e.dataset.stop && e.dataset.run === run.run);
  }, prev, `run ${prev + 1} to finish`, timeout);
}

export async function runAll(driver, timeout) {
  const before = await dataRun(driver);
  await click(driver, '[data-testid="run"]');
  await waitRunDone(driver, before, timeout);
}

export const laneTexts = (driver) => evaluate(driver, () => [...document.querySelectorAll('[data-testid^="lane-"] [data-testid="lane-text"]')].map((e) => e.innerText));

/// Sets a knob as a person does: unfold the lane, type, and leave the box.
export async function setKnob(driver, lane, knob, value) {
  await evaluate(driver, (lane) => {
    const edit = document.querySelector(`[data-testid="lane-${lane}"] [data-testid="lane-edit"]`);
    if (edit.getAttribute('aria-expanded') !== 'true') edit.click();
    return true;
  }, lane);
  const css = `[data-testid="lane-${lane}"] [data-knob="${knob}"]`;
  await waitFor(driver, (css) => !!document.querySelector(css), css, css, 10_000);
  const input = await driver.findElement(By.css(css));
  await input.clear();
  await input.sendKeys(String(value));
  await evaluate(driver, (css) => { document.querySelector(css).dispatchEvent(new Event('change', { bubbles: true })); return true; }, css);
}
