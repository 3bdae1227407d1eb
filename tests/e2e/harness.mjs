// Shared by the browser tests: serve dist/ on 127.0.0.1, launch Debian's
// Chromium headless with a fresh profile, open the page on the bundled model.
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, '..', '..');
export const ARTIFACTS = join(here, 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/// `isolated: false` serves the page without cross-origin isolation, as a
/// static host would: the page then runs the single-threaded worker. `dir`
/// serves another copy of the built site; `args` are extra Chromium flags.
/// `device`: Playwright context options to emulate a device (viewport, touch).
export async function start({ isolated = true, dir = join(ROOT, 'dist'), args = [], device = {}, seen } = {}) {
  const server = await serve(dir, 0, { isolated, seen });
  const base = `http://127.0.0.1:${server.address().port}/`;
  const profile = mkdtempSync(join(tmpdir(), 'ntl-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...args],
    viewport: { width: 1500, height: 1000 },
    ...device,
  });
  const errors = [];
  const open = async (query = '?model=bundled') => {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(base + query);
    return page;
  };
  // The profile (~190 MB with its caches) goes with the browser: a suite's
  // worth of them filled this machine's disk.
  const close = async () => {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  };
  return { base, context, open, close, errors };
}

/// Runs before a page's own scripts (addInitScript, evaluateOnNewDocument):
/// notes the script of every worker the page itself starts in `ntlWorkers`.
export function recordWorkers() {
  const Native = window.Worker;
  window.ntlWorkers = [];
  window.Worker = class extends Native {
    constructor(url, options) {
      super(url, options);
      window.ntlWorkers.push(String(url));
    }
  };
}

export async function modelReady(page, timeout = 120_000) {
  await page.waitForSelector('[data-testid="model-status"][data-state="ready"]', { timeout });
}

/// Clicks Run and waits until every lane reports a stop reason.
export async function runAll(page, timeout = 300_000) {
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="run"]');
  await waitRunDone(page, before, timeout);
}

/// Waits until a run newer than `prev` (the page's data-run) has finished in every lane.
export async function waitRunDone(page, prev, timeout = 300_000) {
  await page.waitForFunction((prev) => {
    const run = document.querySelector('.page')?.dataset;
    const s = [...document.querySelectorAll('[data-testid="lane-status"]')];
    return run && Number(run.run) > prev && run.running === 'false' && s.length > 0 && s.length === document.querySelectorAll('section.lane').length && s.every((e) => e.dataset.stop && e.dataset.run === run.run);
  }, prev, { timeout });
}

export async function laneTexts(page) {
  return page.$$eval('[data-testid^="lane-"] [data-testid="lane-text"]', (els) => els.map((e) => e.innerText));
}

/// Unfolds a lane's knob editor (folded into a one-line summary by default).
export async function openEditor(page, lane) {
  const edit = page.locator(`[data-testid="lane-${lane}"] [data-testid="lane-edit"]`);
  if ((await edit.getAttribute('aria-expanded')) !== 'true') await edit.click();
}

export async function setKnob(page, lane, knob, value) {
  await openEditor(page, lane);
  const input = page.locator(`[data-testid="lane-${lane}"] [data-knob="${knob}"]`);
  await input.fill(String(value));
  await input.dispatchEvent('change');
}

/// The step's recorded run on screen (shown by itself before the model is
/// ready, asked for after).
export async function recordingShown(page) {
  const recorded = '[data-testid="lesson-recorded"]';
  const show = '[data-testid="lesson-show-recording"]';
  await page.waitForSelector(`${recorded}, ${show}`);
  // The button can go between seeing it and clicking it (the page showed the
  // recording by itself once its model was ready; a CI run waited 30 s on
  // it): click it only while it is there.
  for (let i = 0; i < 15 && await page.locator(recorded).count() === 0; i++) {
    if (await page.locator(show).count() > 0) await page.click(show, { timeout: 2000 }).catch(() => {});
    await page.waitForSelector(recorded, { timeout: 2000 }).catch(() => {});
  }
  await page.waitForSelector(recorded);
}
