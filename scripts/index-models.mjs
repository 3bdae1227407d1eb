// Writes DIR/index.json, the list of model folders a site hosts beside the
// page (README: "A model hosted beside the page"), which *Change model*
// shows with each one's class and size. Every subfolder holding a
// config.json is listed, but the bundled model's (kjv-gpt2: the page offers
// it already); a note a teacher wrote into an earlier index.json is kept.
// Usage: node scripts/index-models.mjs [DIR]   (default www/models)
import { readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const BUNDLED = 'kjv-gpt2';
// What the page reads of a folder's name: one plain name (site_models.rs).
const PLAIN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
// The class a config without `architectures` is read as, as the engine reads it.
const CLASS_OF_TYPE = { gpt2: 'GPT2LMHeadModel', llama: 'LlamaForCausalLM', qwen2: 'Qwen2ForCausalLM' };

export function indexModels(dir) {
  const indexFile = join(dir, 'index.json');
  const notes = new Map();
  if (existsSync(indexFile)) {
    for (const m of JSON.parse(readFileSync(indexFile, 'utf8')).models ?? []) if (m.note) notes.set(m.folder, m.note);
  }
  const models = [];
  for (const folder of readdirSync(dir).sort()) {
    const here = join(dir, folder);
    if (folder === BUNDLED || !statSync(here).isDirectory() || !existsSync(join(here, 'config.json'))) continue;
    if (!PLAIN.test(folder)) { console.warn(`skipped ${folder}: not a plain folder name`); continue; }
    const config = JSON.parse(readFileSync(join(here, 'config.json'), 'utf8'));
    const entry = { folder };
    const architecture = config.architectures?.[0] ?? CLASS_OF_TYPE[config.model_type];
    if (architecture) entry.architecture = architecture;
    const bytes = weightBytes(here);
    if (bytes !== null) entry.bytes = bytes;
    if (notes.has(folder)) entry.note = notes.get(folder);
    models.push(entry);
  }
  writeFileSync(indexFile, JSON.stringify({ models }, null, 2) + '\n');
  return models;
}

/// model.safetensors, or every shard its index names, added up.
function weightBytes(here) {
  const single = join(here, 'model.safetensors');
  if (existsSync(single)) return statSync(single).size;
  const shardIndex = join(here, 'model.safetensors.index.json');
  if (!existsSync(shardIndex)) return null;
  const files = new Set(Object.values(JSON.parse(readFileSync(shardIndex, 'utf8')).weight_map ?? {}));
  let sum = 0;
  for (const f of files) sum += statSync(join(here, f)).size;
  return sum;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] || 'www/models';
  const models = indexModels(dir);
  console.log(`${join(dir, 'index.json')}: ${models.length} model folder(s)` + models.map((m) => `\n  models/${m.folder}/  ${m.architecture ?? '?'}  ${m.bytes ?? '?'} bytes`).join(''));
}
