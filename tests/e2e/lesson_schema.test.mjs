// The lesson schema (www/lesson.schema.json, shipped as dist/lesson.schema.json)
// accepts every shipped lesson and the guide's complete example, and refuses
// what the page refuses. No browser: ajv, JSON Schema 2020-12.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const schema = JSON.parse(readFileSync(join(ROOT, 'www', 'lesson.schema.json'), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const lessonsDir = join(ROOT, 'www', 'lessons');

function example() {
  const md = readFileSync(join(ROOT, 'docs', 'lessons.md'), 'utf8');
  return JSON.parse(md.match(/```json\n([\s\S]*?)```/)[1]);
}

test('every shipped lesson and the guide\'s example validate against the schema', () => {
  const files = readdirSync(lessonsDir).filter((f) => f.endsWith('.json') && f !== 'index.json');
  assert.ok(files.length >= 14, `${files.length} lessons`);
  for (const f of files) {
    const lesson = JSON.parse(readFileSync(join(lessonsDir, f), 'utf8'));
    assert.ok(validate(lesson), `${f}: ${JSON.stringify(validate.errors)}`);
  }
  assert.ok(validate(example()), JSON.stringify(validate.errors));
});

test('the schema refuses a wrong version, an unknown knob, a bad question and a recording from elsewhere', () => {
  const bad = [
    (l) => { l.version = 2; },
    (l) => { l.steps[0].lanes[1].temprature = 0.7; },
    (l) => { l.steps[1].lanes[1].max_new_tokens = 5; }, // an HF name in a llama.cpp lane
    (l) => { l.steps[0].questions[1].lane = 5; },
    (l) => { l.steps[1].questions[0].options = ['only one']; },
    (l) => { l.steps[0].recording = '../elsewhere.json'; },
    (l) => { l.steps[0].recording = 'https://evil.example/run.json'; },
    (l) => { l.steps[0].lanes = []; },
    (l) => { l.steps[0].colour = 'red'; },
  ];
  for (const [i, spoil] of bad.entries()) {
    const l = example();
    spoil(l);
    assert.equal(validate(l), false, `case ${i} passed the schema`);
  }
});
