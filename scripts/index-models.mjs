// Writes DIR/index.json, the list of model folders a site hosts beside the
// page (README: "A model hosted beside the page"), which *Change model*
// shows with each one's class and size. Every subfolder holding a
// config.json (or llama.cpp's model.gguf, whose header names its
// architecture, or a student's minigpt.pt) is listed, but the bundled model's (kjv-gpt2: the page offers
// it already); a note a teacher wrote into an earlier index.json is kept.
// Usage: node scripts/index-models.mjs [DIR]   (default www/models)
import { readdirSync, readFileSync, statSync, writeFileSync, existsSync, openSync, readSync, closeSync } from 'node:fs';
import { join } from 'node:path';

const BUNDLED = 'kjv-gpt2';
// What the page reads of a folder's name: one plain name (site_models.rs).
const PLAIN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
// The class a config without `architectures` is read as, as the engine reads it.
const CLASS_OF_TYPE = { gpt2: 'GPT2LMHeadModel', llama: 'LlamaForCausalLM', qwen2: 'Qwen2ForCausalLM', minigpt: 'MiniGPT (dnnlpy)' };
// A student's MiniGPT (seed 004): its state dict, as the tutorial saves it.
const TORCH = 'minigpt.pt';
// A folder's llama.cpp file: the page loads it when there is no config.json.
const GGUF = 'model.gguf';

export function indexModels(dir) {
  const indexFile = join(dir, 'index.json');
  const notes = new Map();
  if (existsSync(indexFile)) {
    for (const m of JSON.parse(readFileSync(indexFile, 'utf8')).models ?? []) if (m.note) notes.set(m.folder, m.note);
  }
  const models = [];
  for (const folder of readdirSync(dir).sort()) {
    const here = join(dir, folder);
    if (folder === BUNDLED || !statSync(here).isDirectory()) continue;
    const hasConfig = existsSync(join(here, 'config.json'));
    const hasTorch = existsSync(join(here, TORCH));
    if (!hasConfig && !existsSync(join(here, GGUF)) && !hasTorch) continue;
    if (!PLAIN.test(folder)) { console.warn(`skipped ${folder}: not a plain folder name`); continue; }
    const entry = { folder };
    const architecture = hasTorch
      ? CLASS_OF_TYPE.minigpt
      : hasConfig
        ? (({ architectures, model_type }) => (model_type === 'minigpt' ? CLASS_OF_TYPE.minigpt : architectures?.[0]) ?? CLASS_OF_TYPE[model_type])(JSON.parse(readFileSync(join(here, 'config.json'), 'utf8')))
        : CLASS_OF_TYPE[ggufArchitecture(join(here, GGUF))];
    if (architecture) entry.architecture = architecture;
    const bytes = weightBytes(here);
    if (bytes !== null) entry.bytes = bytes;
    if (notes.has(folder)) entry.note = notes.get(folder);
    models.push(entry);
  }
  writeFileSync(indexFile, JSON.stringify({ models }, null, 2) + '\n');
  return models;
}

/// model.safetensors, or every shard its index names, added up; or model.gguf.
function weightBytes(here) {
  const single = join(here, 'model.safetensors');
  if (existsSync(single)) return statSync(single).size;
  if (existsSync(join(here, GGUF)) && !existsSync(join(here, 'config.json'))) return statSync(join(here, GGUF)).size;
  if (existsSync(join(here, TORCH))) return statSync(join(here, TORCH)).size;
  const shardIndex = join(here, 'model.safetensors.index.json');
  if (!existsSync(shardIndex)) return null;
  const files = new Set(Object.values(JSON.parse(readFileSync(shardIndex, 'utf8')).weight_map ?? {}));
  let sum = 0;
  for (const f of files) sum += statSync(join(here, f)).size;
  return sum;
}

/// `general.architecture` from a GGUF file's header (llama.cpp writes it
/// first); undefined when the file is not GGUF or the key is not among the
/// first entries.
export function ggufArchitecture(file) {
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(64 * 1024);
  const n = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const b = head.subarray(0, n);
  if (n < 24 || b.toString('latin1', 0, 4) !== 'GGUF') return undefined;
  let at = 24; // magic, version, tensor count, metadata count
  const str = () => {
    const len = Number(b.readBigUInt64LE(at));
    const s = b.toString('utf8', at + 8, at + 8 + len);
    at += 8 + len;
    return s;
  };
  const sizes = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
  try {
    for (let i = 0; i < 16 && at < n; i++) {
      const key = str();
      const type = b.readUInt32LE(at);
      at += 4;
      if (type === 8) {
        const value = str();
        if (key === 'general.architecture') return value;
      } else if (type in sizes) at += sizes[type];
      else return undefined; // an array: the architecture comes before any
    }
  } catch { /* a header shorter than it says */ }
  return undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] || 'www/models';
  const models = indexModels(dir);
  console.log(`${join(dir, 'index.json')}: ${models.length} model folder(s)` + models.map((m) => `\n  models/${m.folder}/  ${m.architecture ?? '?'}  ${m.bytes ?? '?'} bytes`).join(''));
}
