// The page in the reader's language: ?lang=, the picker (remembered on the
// site), the browser's languages; the document's `lang` follows, and an
// unknown ?lang= is English. The catalogs' completeness is a unit test
// (src/i18n/tests.rs); this checks the page speaks them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import { start, modelReady } from './harness.mjs';

let env;
before(async () => { env = await start({ isolated: false }); });
after(async () => { await env?.close(); });

const lang = (page) => page.evaluate(() => document.documentElement.lang);
const text = (page, id) => page.innerText(`[data-testid="${id}"]`);

test('?lang=zh-CN speaks Chinese and its links carry it; the picker switches to English and back without losing the prompt, and the pick is remembered', async () => {
  const page = await env.open('?model=bundled&lang=zh-CN');
  await modelReady(page);
  assert.equal(await lang(page), 'zh-CN');
  assert.equal(await page.innerText('h1'), '模型是怎样选出下一个词元的？');
  assert.equal(await text(page, 'run'), '运行');
  assert.equal(await text(page, 'present-toggle'), '投影模式');
  assert.equal(await text(page, 'share'), '复制分享链接');
  assert.equal(await page.innerText('label[for="prompt"]'), '提示词');
  assert.equal(await page.innerText('[data-testid="lane-0"] h2'), '通道 1');
  assert.equal(await text(page, 'lane-edit'), '编辑');
  assert.equal(await page.inputValue('[data-testid="lang-picker"]'), 'zh-CN');
  const options = await page.$$eval('[data-testid="lang-picker"] option', (os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(options, [['en', 'English'], ['zh-CN', '中文（简体）']]);
  const result = await new AxeBuilder({ page }).include('header').include('.prompt-row').analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious.map((v) => v.id), [], 'axe, in Chinese');

  // Links made here open in Chinese: the share link and the embed, whose
  // iframe's title a screen reader reads in the course page, in Chinese too.
  await page.click('[data-testid="share"]');
  assert.match(await page.inputValue('[data-testid="share-link"]'), /\?lang=zh-CN#run=1\./);
  await page.click('[data-testid="embed"]');
  const code = await page.inputValue('[data-testid="embed-code"]');
  assert.match(code, /\?embed=1&amp;lang=zh-CN#run=1\./);
  assert.match(code, /title="下一个词元实验室：/);

  await page.fill('[data-testid="prompt"]', '我们今天学习');
  await page.selectOption('[data-testid="lang-picker"]', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await text(page, 'run'), 'Run');
  assert.equal(await page.innerText('h1'), 'How does the model pick the next token?');
  assert.equal(await page.inputValue('[data-testid="prompt"]'), '我们今天学习', 'the prompt stays');
  assert.equal(new URL(page.url()).searchParams.get('lang'), 'en', 'the address says it, for a reload or a link');

  await page.selectOption('[data-testid="lang-picker"]', 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal(await text(page, 'run'), '运行');
  await page.close();

  // The next visit on this site, with no ?lang=, opens in the reader's pick.
  const again = await env.open('?model=bundled');
  await again.waitForSelector('[data-testid="run"]');
  assert.equal(await lang(again), 'zh-CN');
  assert.equal(await text(again, 'run'), '运行');
  await again.selectOption('[data-testid="lang-picker"]', 'en');
  await again.waitForFunction(() => document.documentElement.lang === 'en');
  await again.close();
});

test('a lesson in a Chinese page: its steps, recorded run and handout button speak Chinese', async () => {
  const page = await env.open('?lesson=lessons/walk-003-four-knobs.json&lang=zh-CN');
  await page.waitForSelector('[data-testid="lesson-step"]');
  assert.match(await text(page, 'lesson-step'), /^第 1 步，共 \d+ 步/);
  assert.equal(await text(page, 'lesson-next'), '下一步 →');
  assert.equal(await text(page, 'print-handout'), '把课程打印成讲义');
  await page.close();
});

test('an unknown ?lang= is English, silently', async () => {
  const page = await env.open('?model=bundled&lang=tlh');
  await page.waitForSelector('[data-testid="run"]');
  assert.equal(await lang(page), 'en');
  assert.equal(await text(page, 'run'), 'Run');
  assert.equal(await page.locator('[data-testid="error"]').count(), 0);
  await page.close();
});

test('a browser that asks for Chinese first gets Chinese with no ?lang= and no earlier pick', async () => {
  const zh = await start({ isolated: false, args: ['--lang=zh-CN', '--accept-lang=zh-CN,zh,en'] });
  try {
    const page = await zh.open('?model=bundled');
    await page.waitForSelector('[data-testid="run"]');
    const languages = await page.evaluate(() => navigator.languages);
    assert.equal(languages[0].toLowerCase().startsWith('zh'), true, `navigator.languages: ${languages}`);
    assert.equal(await lang(page), 'zh-CN');
    assert.equal(await text(page, 'run'), '运行');
  } finally {
    await zh.close();
  }
});
