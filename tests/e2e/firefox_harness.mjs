// The Firefox side of the browser tests: Debian's firefox-esr driven by
// puppeteer-core over WebDriver BiDi (Playwright drives only its own patched
// Firefox). Same served site as harness.mjs; the helpers mirror its names so
// a test reads the same in either browser.
import puppeteer from 'puppeteer-core';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { ROOT } from './harness.mjs';

export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';

/// One headless Firefox and two servers of dist/: `isolated` (COOP + COEP, the
/// threaded worker) and `plain` (a static host, the single-threaded worker).
/// Downloads land in `downloads` without a dialog, as a visitor's would.
/// `prefs` are extra Firefox preferences.
export async function startFirefox({ prefs = {}, acceptInsecureCerts = false } = {}) {
  const servers = await Promise.all([serve(join(ROOT, 'dist'), 0, { isolated: true }), serve(join(ROOT, 'dist'), 0, { isolated: false })]);
  const [isolated, plain] = servers.map((s) => `http://127.0.0.1:${s.address().port}/`);
  const downloads = mkdtempSync(join(tmpdir(), 'ntl-firefox-dl-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: {
      'browser.download.dir': downloads,
      'browser.download.folderList': 2,
      'browser.download.useDownloadDir': true,
      'browser.download.always_ask_before_handling_new_types': false,
      ...prefs,
    },
    acceptInsecureCerts,
    // Longer than driveWorker's own stage limits, which say where a run stopped.
    protocolTimeout: 600_000,
  });
  const errors = [];
  // `preload` runs before the page's own scripts (see harness.mjs recordWorkers).
  const open = async (base, query = '?model=bundled', { preload } = {}) => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1500, height: 1000 });
    page.on('pageerror', (e) => errors.push(String(e)));
    if (preload) await page.evaluateOnNewDocument(preload);
    await page.goto(base + query);
    return page;
  };
  const close = async () => { await browser.close(); for (const s of servers) s.close(); };
  return { browser, isolated, plain, downloads, open, close, errors };
}

export async function modelReady(page, timeout = 120_000) {
  await page.waitForSelector('[data-testid="model-status"][data-state="ready"]', { timeout });
}

export async function dataRun(page) {
  return page.$eval('.page', (e) => Number(e.dataset.run));
}

/// Waits until a run newer than `prev` has finished in every lane.
export async function waitRunDone(page, prev, timeout = 300_000) {
  await page.waitForFunction((prev) => {
    const run = document.querySelector('.page')?.dataset;
    const s = [...document.querySelectorAll('[data-testid="lane-status"]')];
    return run && Number(run.run) > prev && run.running === 'false' && s.length > 0 && s.length === document.querySelectorAll('section.lane').length && s.every((e) => e.dataset.stop && e.dataset.run === run.run);
  }, { timeout }, prev);
}

export async function runAll(page, timeout) {
  const before = await dataRun(page);
  await page.click('[data-testid="run"]');
  await waitRunDone(page, before, timeout);
}

export async function laneTexts(page) {
  return page.$$eval('[data-testid^="lane-"] [data-testid="lane-text"]', (els) => els.map((e) => e.innerText));
}

export async function setKnob(page, lane, knob, value) {
  const edit = `[data-testid="lane-${lane}"] [data-testid="lane-edit"]`;
  if ((await page.$eval(edit, (e) => e.getAttribute('aria-expanded'))) !== 'true') await page.click(edit);
  const input = `[data-testid="lane-${lane}"] [data-knob="${knob}"]`;
  await page.waitForSelector(input);
  // What typing and leaving the field does: the value, then input and change.
  await page.$eval(input, (e, v) => {
    e.value = v;
    e.dispatchEvent(new Event('input', { bubbles: true }));
    e.dispatchEvent(new Event('change', { bubbles: true }));
  }, String(value));
}

/// Clicks `selector` and returns the file Firefox saved for it.
export async function download(env, page, selector, timeout = 20_000) {
  const before = new Set(readdirSync(env.downloads));
  await page.click(selector);
  const end = Date.now() + timeout;
  let last = -1;
  while (Date.now() < end) {
    // Firefox writes NAME.part (beside an empty NAME) and renames it when the
    // file is whole: done when no .part is left and the size holds still.
    const files = readdirSync(env.downloads).filter((f) => !before.has(f));
    const done = files.filter((f) => !f.endsWith('.part'));
    if (done.length === 1 && !files.some((f) => f.endsWith('.part'))) {
      const path = join(env.downloads, done[0]);
      const size = statSync(path).size;
      if (size > 0 && size === last) return { name: done[0], path, text: readFileSync(path, 'utf8') };
      last = size;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`no download from ${selector} within ${timeout} ms`);
}
