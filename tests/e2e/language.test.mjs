// The page in the reader's language: ?lang=, the picker (remembered on the
// site), the browser's languages; the document's `lang` follows, and an
// unknown ?lang= is English. The catalogs' completeness is a unit test
// (src/i18n/tests.rs); this checks the page speaks them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import { start, modelReady, waitRunDone, setKnob } from './harness.mjs';
import { englishChrome } from './chrome_words.mjs';

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
  assert.deepEqual(options, [['en', 'English'], ['zh-CN', '简体中文']]);
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

test('in Chinese, a Chinese prompt shows split characters as bytes, never U+FFFD, and no English chrome shows on the page, its model panel, the compare view or a lesson in projector mode', async () => {
  const page = await env.open('?model=bundled&lang=zh-CN');
  await page.setViewportSize({ width: 1440, height: 900 });
  await modelReady(page);
  await page.fill('[data-testid="prompt"]', '我们今天学习');
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="run"]');
  await waitRunDone(page, before);
  // GPT-2's byte-level tokens cut the characters: the inspector shows the
  // pieces' bytes, and a piece names its character.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="prompt-token"]').length > 0);
  const chips = await page.$$eval('[data-testid="prompt-token"]', (cs) => cs.map((c) => [c.querySelector('.piece').textContent, c.title]));
  assert.ok(chips.some(([piece]) => /⟨[0-9a-f]{2}( [0-9a-f]{2})*⟩/.test(piece)), JSON.stringify(chips));
  assert.ok(chips.some(([, title]) => /“[我们今天学习]”/.test(title)), JSON.stringify(chips));
  assert.match(await page.innerText('[data-testid="prompt-token-count"]'), /6 个字符/);
  assert.equal((await page.innerText('body')).includes('\uFFFD'), false, 'no replacement character anywhere');
  // The lessons offered are the Chinese ones, the open one first.
  const offered = await page.$$eval('[data-testid="preset"] option', (os) => os.map((o) => o.textContent));
  assert.equal(offered[0], '一个提示词，四次运行');
  assert.ok(offered.every((t) => !/^[A-Za-z ,:'-]+$/.test(t)), JSON.stringify(offered));
  // Every view's leftovers at once, so one failure shows them all.
  const left = {};
  left.page = await englishChrome(page);
  await page.click('.model-choice summary');
  left.modelPanel = await englishChrome(page);
  await page.click('[data-testid="lane-0"] [data-testid="token"]');
  await page.waitForSelector('[data-testid="compare"]');
  left.compare = await englishChrome(page);
  assert.equal((await page.innerText('body')).includes('\uFFFD'), false);
  await page.close();

  // A lesson file in Chinese, with no ?lang=: the page speaks the lesson's language.
  const lesson = await env.open('?lesson=lessons/walk-003-four-knobs.zh-CN.json&present=1');
  await lesson.setViewportSize({ width: 1024, height: 768 });
  await lesson.waitForSelector('[data-testid="lesson-recorded"]');
  await lesson.waitForSelector('[data-testid="question"]');
  assert.equal(await lang(lesson), 'zh-CN');
  assert.match(await lesson.innerText('[data-testid="lesson-prose"]'), /词元/);
  left.projectedQuestion = await englishChrome(lesson);
  await lesson.click('[data-testid="question-skip"]');
  await lesson.waitForSelector('[data-testid="reveal"]');
  left.revealed = await englishChrome(lesson);
  assert.deepEqual(left, { page: [], modelPanel: [], compare: [], projectedQuestion: [], revealed: [] });
  const result = await new AxeBuilder({ page: lesson }).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious.map((v) => v.id), [], 'axe, in Chinese');
  await lesson.close();
});

test('in Chinese, what the page refuses is said in Chinese — a knob out of range, a damaged share link, a lesson on another site — and English rewords it in HF\'s words', async () => {
  const page = await env.open('?model=bundled&lang=zh-CN');
  await modelReady(page);
  await setKnob(page, 1, 'top_p', '1.5');
  const refused = page.locator('[data-testid="lane-1"] [data-testid="lane-error"]').first();
  assert.equal(await refused.innerText(), '`top_p` 应在 (0, 1] 范围内，但现在是 1.5');
  await page.selectOption('[data-testid="lang-picker"]', 'en');
  assert.equal(await refused.innerText(), '`top_p` has to be a float > 0 and <= 1, but is 1.5');
  // What only the model can refuse comes back from the worker typed, and is worded here.
  await setKnob(page, 1, 'top_p', '');
  await page.selectOption('[data-testid="lang-picker"]', 'zh-CN');
  await setKnob(page, 0, 'eos_token_id', '60000');
  await page.click('[data-testid="run"]');
  const model = page.locator('[data-testid="lane-0"] [data-testid="lane-error"]').first();
  await model.waitFor();
  assert.equal(await model.innerText(), '`eos_token_id` 提到了词元 60000，超出了 50257 个词元的词表');
  await page.close();

  const link = await env.open('?model=bundled&lang=zh-CN#run=1.%%%');
  assert.match(await text(link, 'error'), /^无法打开这个分享链接：它的数据不是 base64url/);
  await link.close();

  const away = await env.open('?model=bundled&lang=zh-CN&lesson=https://evil.example/lesson.json');
  await away.waitForSelector('[data-testid="lesson-error"]');
  assert.match(await text(away, 'lesson-error'), /指向另一个网站/);
  await away.close();
});

test('the two-tokenizer lesson in Chinese: GPT-2 cuts 13 characters into 24 tokens shown as bytes, the class guesses the count, and no U+FFFD shows', async () => {
  const page = await env.open('?lesson=lessons/chinese-two-tokenizers.zh-CN.json');
  await modelReady(page);
  assert.equal(await lang(page), 'zh-CN');
  await page.click('[data-testid="lesson-next"]');
  assert.match(await text(page, 'lesson-step'), /2/);
  assert.equal(await page.inputValue('[data-testid="prompt"]'), '学生们在课堂上猜下一个词。');
  await page.waitForSelector('[data-testid="question"][data-state="open"]');
  // The guess: 24 is the third option.
  await page.locator('[data-testid="question-choice"] >> nth=2').check();
  await page.click('[data-testid="question-answer"]');
  await page.waitForSelector('[data-testid="reveal"]');
  assert.equal(await page.getAttribute('[data-testid="reveal-verdict"]', 'data-right'), 'true');
  assert.match(await text(page, 'reveal-explanation'), /学生们 · 在 · 课堂/);
  // Revealed, the inspector lists the prompt's tokens from the model's own tokenizer.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="prompt-token"]').length === 24);
  assert.match(await text(page, 'prompt-token-count'), /^24 个词元.*13 个字符/);
  const pieces = await page.$$eval('[data-testid="prompt-token"] .piece', (ps) => ps.map((p) => p.textContent));
  assert.ok(pieces.filter((p) => /^⟨[0-9a-f]{2}( [0-9a-f]{2})*⟩$/.test(p)).length >= 15, JSON.stringify(pieces));
  assert.deepEqual(await englishChrome(page), []);
  assert.equal((await page.innerText('body')).includes('\uFFFD'), false);
  await page.close();
});

test('switching the language mid-lesson keeps the step and its run, and swaps the built-in lesson for its translation', async () => {
  const page = await env.open('?model=bundled&lang=en');
  await modelReady(page);
  const walk = await page.$$eval('[data-testid="preset"] option', (os) => os.find((o) => o.textContent.startsWith('Logits and the four knobs')).value);
  await page.selectOption('[data-testid="preset"]', walk);
  await page.click('[data-testid="lesson-next"]');
  await page.click('[data-testid="lesson-next"]');
  assert.match(await text(page, 'lesson-step'), /^Step 3 of 8/);
  const prompt = await page.inputValue('[data-testid="prompt"]');
  await page.selectOption('[data-testid="lang-picker"]', 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.match(await text(page, 'lesson-step'), /^第 3 步，共 8 步：参数 1：温度/);
  assert.match(await text(page, 'lesson-prose'), /温度在 softmax 之前除 logits/);
  assert.equal(await page.inputValue('[data-testid="prompt"]'), prompt, 'the step stays');
  await page.selectOption('[data-testid="lang-picker"]', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.match(await text(page, 'lesson-step'), /^Step 3 of 8: Knob 1: temperature/);
  await page.close();
});

test('on a phone, in Chinese, nothing is wider than the screen, with a step open and in projector mode', async () => {
  const page = await env.open('?model=bundled&lang=zh-CN');
  await page.setViewportSize({ width: 390, height: 844 });
  await modelReady(page);
  const before = Number(await page.getAttribute('.page', 'data-run'));
  await page.click('[data-testid="run"]');
  await waitRunDone(page, before);
  await page.click('[data-testid="lane-0"] [data-testid="token"] >> nth=1');
  await page.waitForSelector('[data-testid="compare"]');
  const overflow = () => page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      // Inside the sideways scrollers is where wide content belongs.
      if (r.width > 0 && r.right > innerWidth + 1 && !el.closest('.compare-lanes, .grid-scroll, .prompt-chips')) out.push(el.outerHTML.slice(0, 80));
    }
    return { page: document.documentElement.scrollWidth, out };
  });
  assert.deepEqual(await overflow(), { page: 390, out: [] });
  await page.click('[data-testid="present-toggle"]');
  await page.waitForSelector('.page.present');
  assert.deepEqual(await overflow(), { page: 390, out: [] }, 'projector mode');
  await page.close();
});
