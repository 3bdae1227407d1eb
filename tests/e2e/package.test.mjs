// A lesson to upload: "Download as a package" states what the zip holds and
// its size, then writes one zip — the page, the lesson, its recorded runs and
// the bundled model, an imsmanifest.xml for SCORM 1.2. Unpacked on a plain
// static host it runs the lesson offline; inside a page that offers the
// SCORM 1.2 API (as an LMS's player does) it reports score and completion.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, existsSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, modelReady, ROOT } from './harness.mjs';

const LESSON = 'walk-003-four-knobs.json';
const lesson = JSON.parse(readFileSync(join(ROOT, 'www', 'lessons', LESSON), 'utf8'));
const questions = lesson.steps.reduce((n, s) => n + (s.questions?.length ?? 0), 0);

let env;
before(async () => { env = await start({ isolated: false }); });
after(async () => { await env?.close(); });

// An LMS's SCORM 1.2 player, reduced to what it records: the API in the
// parent frame, the package's launch page in an iframe.
const LMS_PAGE = `<!doctype html><meta charset="utf-8"><title>LMS</title>
<script>
  window.scormCalls = [];
  window.scormData = {};
  window.API = {
    LMSInitialize: (a) => { scormCalls.push(['LMSInitialize', a]); return 'true'; },
    LMSSetValue: (k, v) => { scormCalls.push(['LMSSetValue', k, v]); scormData[k] = v; return 'true'; },
    LMSGetValue: (k) => scormData[k] ?? '',
    LMSCommit: (a) => { scormCalls.push(['LMSCommit', a]); return 'true'; },
    LMSFinish: (a) => { scormCalls.push(['LMSFinish', a]); return 'true'; },
    LMSGetLastError: () => '0', LMSGetErrorString: () => '', LMSGetDiagnostic: () => '',
  };
</script>
<iframe id="sco" src="app/index.html?lesson=lesson.json" style="width:1400px;height:900px"></iframe>`;

test('a lesson packs into one zip that an LMS imports and a plain host serves offline, and it reports its score through SCORM 1.2', async () => {
  const page = await env.open(`?lesson=lessons/${LESSON}`);
  await page.waitForSelector('[data-testid="lesson-title"]');
  await page.click('[data-testid="package"]');
  await page.waitForSelector('[data-testid="package-offer"]');
  const site = JSON.parse(readFileSync(join(ROOT, 'dist', 'site-files.json'), 'utf8'));
  const mb = (site.reduce((s, f) => s + f.bytes, 0) / 1e6).toFixed(1);
  const offer = await page.textContent('[data-testid="package-offer"]');
  const runs = lesson.steps.filter((s) => s.recording).length;
  assert.match(offer, new RegExp(`holds the page, the lesson, ${runs} recorded runs and the bundled model: ${mb.replace('.', '\\.')} MB`));
  assert.ok(site.some((f) => f.path === 'models/kjv-gpt2/model.safetensors'));
  assert.ok(!site.some((f) => f.path.startsWith('lessons/') || f.path.startsWith('worker_mt')), 'no built-in lessons, no threaded worker');
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    page.click('[data-testid="package-download"]'),
  ]);
  const slug = lesson.title.split(/[^\p{L}\p{N}]+/u).filter(Boolean).map((w) => w.toLowerCase()).join('-').slice(0, 60);
  assert.equal(download.suggestedFilename(), `${slug}-scorm.zip`);
  await page.waitForSelector('[data-testid="package-status"][data-state="done"]');
  const dir = mkdtempSync(join(tmpdir(), 'ntl-package-'));
  const zip = join(dir, 'package.zip');
  await download.saveAs(zip);
  await page.close();

  // Unzipped as an LMS or a web space would.
  const root = join(dir, 'site');
  execFileSync('python3', ['-m', 'zipfile', '-e', zip, root]);
  for (const f of ['imsmanifest.xml', 'index.html', 'app/index.html', 'app/lesson.json', 'app/recordings/step-1.json', 'app/models/kjv-gpt2/model.safetensors']) {
    assert.ok(existsSync(join(root, f)), `${f} is in the package`);
  }
  assert.equal(statSync(join(root, 'app/models/kjv-gpt2/model.safetensors')).size, statSync(join(ROOT, 'dist/models/kjv-gpt2/model.safetensors')).size);
  const manifest = readFileSync(join(root, 'imsmanifest.xml'), 'utf8');
  assert.match(manifest, /<schemaversion>1\.2<\/schemaversion>/);
  assert.match(manifest, /adlcp:scormtype="sco" href="app\/index\.html"/);
  assert.match(manifest, /parameters="\?lesson=lesson\.json"/);
  assert.match(manifest, /<file href="app\/models\/kjv-gpt2\/model\.safetensors"\/>/);
  const packed = JSON.parse(readFileSync(join(root, 'app/lesson.json'), 'utf8'));
  assert.equal(packed.title, lesson.title);
  assert.equal(packed.steps[0].recording, 'recordings/step-1.json');
  assert.match(readFileSync(join(root, 'index.html'), 'utf8'), /url=app\/index\.html\?lesson=lesson\.json/);
  writeFileSync(join(root, 'lms.html'), LMS_PAGE);

  // Served by a plain static host: nothing is asked of any other host.
  const host = await start({ isolated: false, dir: root });
  try {
    const asked = [];
    host.context.on('request', (r) => { if (new URL(r.url()).hostname !== '127.0.0.1') asked.push(r.url()); });
    const opened = await host.open('');
    await opened.waitForURL(/app\/index\.html\?lesson=lesson\.json/);
    await opened.waitForSelector('[data-testid="lesson-title"]');
    assert.match(await opened.textContent('[data-testid="lesson-title"]'), new RegExp(lesson.title.slice(0, 20)));
    await modelReady(opened);
    await opened.close();

    const lms = await host.open('lms.html');
    const frame = await (await lms.waitForSelector('#sco')).contentFrame();
    await frame.waitForSelector('[data-testid="question"][data-state="open"]');
    await frame.waitForSelector('[data-testid="model-status"][data-state="ready"]', { timeout: 120_000 });
    const calls = () => lms.evaluate(() => window.scormCalls);
    assert.deepEqual((await calls())[0], ['LMSInitialize', '']);
    assert.equal(await lms.evaluate(() => scormData['cmi.core.lesson_status']), 'incomplete');
    // Answer the first question with the keyboard, as a student would.
    await frame.focus('[data-testid="question-typed"]');
    await frame.press('[data-testid="question-typed"]', 't');
    await frame.type('[data-testid="question-typed"]', 'he');
    await frame.press('[data-testid="question-typed"]', 'Enter');
    await frame.waitForSelector('[data-testid="reveal"]');
    await lms.waitForFunction(() => window.scormData['cmi.core.score.raw'] !== undefined);
    const data = await lms.evaluate(() => window.scormData);
    assert.equal(data['cmi.core.score.raw'], String(Math.floor(100 / questions)));
    assert.equal(data['cmi.core.score.max'], '100');
    assert.equal(data['cmi.core.lesson_status'], 'incomplete', `1 of ${questions} questions answered`);
    assert.ok((await calls()).some((c) => c[0] === 'LMSCommit'));
    // The other questions shown without a guess: every question answered, the lesson completed.
    for (let i = 1; i < lesson.steps.length; i++) {
      await frame.click('[data-testid="lesson-next"]');
      for (let q = 0; q < (lesson.steps[i].questions?.length ?? 0); q++) {
        await frame.click('[data-testid="question"][data-state="open"] [data-testid="question-skip"]');
      }
    }
    await lms.waitForFunction(() => window.scormData['cmi.core.lesson_status'] === 'completed');
    assert.equal(await lms.evaluate(() => window.scormData['cmi.core.score.raw']), String(Math.floor(100 / questions)));
    assert.deepEqual(asked, [], 'the package runs offline');
    await lms.close();

    // The page without a lesson, framed by the same LMS page, says nothing to it.
    writeFileSync(join(root, 'lms-plain.html'), LMS_PAGE.replace('app/index.html?lesson=lesson.json', 'app/index.html?model=bundled'));
    const plain = await host.open('lms-plain.html');
    const plainFrame = await (await plain.waitForSelector('#sco')).contentFrame();
    await plainFrame.waitForSelector('[data-testid="model-status"][data-state="ready"]', { timeout: 120_000 });
    assert.deepEqual(await plain.evaluate(() => window.scormCalls), []);
    assert.deepEqual(host.errors, []);
    await plain.close();
  } finally {
    await host.close();
  }
});
