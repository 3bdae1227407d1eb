// The README's pictures: the page on the bundled model with a step open in
// every lane, at 1440×900 (light and dark), 1024×768 and 390×844 (a phone,
// at the compare view), and in Chinese at 1440 and 390 (a Chinese prompt).
// Run after scripts/build.sh; writes docs/*.png. A word picks shots by name.
//   node scripts/screenshots.mjs [zh-CN]
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'tests/e2e/package.json'));
const { chromium } = require('playwright-core');

const shots = [
  { name: 'page-1440.png', width: 1440, height: 900, scheme: 'light', top: true },
  { name: 'page-1440-dark.png', width: 1440, height: 900, scheme: 'dark', top: true },
  { name: 'page-1024.png', width: 1024, height: 768, scheme: 'light', top: true },
  { name: 'page-390.png', width: 390, height: 844, scheme: 'light', top: false },
  { name: 'page-zh-CN-1440.png', width: 1440, height: 900, scheme: 'light', top: true, lang: 'zh-CN', prompt: '我们今天学习' },
  { name: 'page-zh-CN-390.png', width: 390, height: 844, scheme: 'light', top: false, lang: 'zh-CN', prompt: '我们今天学习' },
].filter((s) => !process.argv[2] || s.name.includes(process.argv[2]));

const server = await serve(join(root, 'dist'), 0, { isolated: true });
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
for (const s of shots) {
  const page = await browser.newPage({ viewport: { width: s.width, height: s.height }, colorScheme: s.scheme });
  await page.goto(base + '?model=bundled' + (s.lang ? `&lang=${s.lang}` : ''));
  await page.waitForSelector('[data-testid="model-status"][data-state="ready"]', { timeout: 120_000 });
  if (s.prompt) await page.fill('[data-testid="prompt"]', s.prompt);
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="run"]');
  await page.waitForFunction((prev) => {
    const d = document.querySelector('.page').dataset;
    return Number(d.run) > prev && d.running === 'false';
  }, before, { timeout: 300_000 });
  await page.click('[data-testid="lane-1"] [data-testid="token"] >> nth=2');
  await page.waitForSelector('[data-testid="compare"]');
  // The view scrolls itself into view; the wide shots show the page's top.
  if (s.top) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(root, 'docs', s.name) });
  console.log(`wrote docs/${s.name}`);
  await page.close();
}
await browser.close();
server.close();
