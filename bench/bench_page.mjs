// A throwaway site for the browser benchmarks: the built page's files from
// dist/, the checkpoint at `bench-model/`, an empty page to start workers
// from — served as the page is served (cross-origin isolated for the
// threaded worker, or not) and opened in headless Chromium (or Firefox).
// BENCH_DIST=DIR serves another build instead of dist/ (to compare two builds
// in alternating runs). BENCH_CHROMIUM_ARGS adds Chromium flags, space-separated
// (`--js-flags=--prof --no-zygote` writes V8 tick logs for `node --prof-process`).
import { mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { serve } from '../scripts/serve.mjs';

const require = createRequire(join(process.cwd(), 'tests/e2e/package.json'));
const { chromium } = require('playwright-core');

/// Headless Debian Chromium as every bench script runs it (the peers too).
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [...(process.env.BENCH_CHROMIUM_ARGS || '').split(' ').filter(Boolean), '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/// The empty page, and `close` to stop the browser and the server (`modelDir`
/// null: no checkpoint, for measurements that need none). `firefox`:
/// Debian's firefox-esr through puppeteer-core (WebDriver BiDi) instead.
export async function benchPage(modelDir, threaded, { firefox = false } = {}) {
  const dist = resolve(process.env.BENCH_DIST || 'dist');
  const site = mkdtempSync(join(tmpdir(), 'ntl-bench-'));
  for (const f of readdirSync(dist)) symlinkSync(join(dist, f), join(site, f));
  if (modelDir) symlinkSync(resolve(modelDir), join(site, 'bench-model'));
  writeFileSync(join(site, 'bench.html'), '<!doctype html><title>bench</title>');
  const server = await serve(site, 0, { isolated: threaded });
  const url = `http://127.0.0.1:${server.address().port}/bench.html`;
  if (firefox) {
    const { default: puppeteer } = await import(require.resolve('puppeteer-core'));
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath: process.env.FIREFOX || '/usr/bin/firefox-esr', headless: true });
    const page = await browser.newPage();
    await page.goto(url);
    if (threaded && !(await page.evaluate(() => self.crossOriginIsolated))) throw new Error('the bench page is not cross-origin isolated');
    return { page, close: async () => { await browser.close(); server.close(); } };
  }
  const browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(url);
  if (threaded && !(await page.evaluate(() => self.crossOriginIsolated))) throw new Error('the bench page is not cross-origin isolated');
  return { page, close: async () => { await browser.close(); server.close(); } };
}
