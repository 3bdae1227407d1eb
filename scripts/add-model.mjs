// Downloads a hub model into a folder the page serves beside itself
// (README: "A model hosted beside the page"), then writes the folders' index:
// a teacher's one command, on a machine that reaches the hub, from a repo
// name to a model the class loads from the school's own site.
//
//   node scripts/add-model.mjs OWNER/NAME[:TAG|:FILE.gguf] [--as FOLDER] [--into DIR]
//
// A transformers repo gives config.json, its tokenizer (tokenizer.json, or
// vocab.json + merges.txt), model.safetensors or its shards with their
// index, and generation_config.json / tokenizer_config.json when present. A
// repo of llama.cpp files gives one .gguf, picked by the page's own rule
// (`gguf-pick`, ntl_protocol::hub_gguf: a quant tag or a file name, else the
// only file or Q4_K_M), saved as model.gguf, with the repo's tokenizer.json
// when it has one. DIR defaults to www/models (the build copies it into
// dist/models); FOLDER to the repo's name. HF_ENDPOINT names another hub (a
// mirror), as huggingface_hub reads it. Files arrive as FILE.part and are
// renamed when whole, so a cut download never looks like a model.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { indexModels } from './index-models.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// What the page reads of a folder's name and a repo id (site_models.rs, hub ids).
const PLAIN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const REPO = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;
const OPTIONAL = ['generation_config.json', 'tokenizer_config.json'];

export class AddModelError extends Error {}

/// The files to fetch from a transformers repo's listing, or why it cannot
/// serve the page.
export function safetensorsFiles(paths) {
  const has = (p) => paths.includes(p);
  if (!has('config.json')) throw new AddModelError('the repo has no config.json: it is not a transformers model (a llama.cpp repo holds .gguf files)');
  const tokenizer = has('tokenizer.json') ? ['tokenizer.json'] : has('vocab.json') && has('merges.txt') ? ['vocab.json', 'merges.txt'] : null;
  if (!tokenizer) throw new AddModelError('the repo has neither tokenizer.json nor vocab.json + merges.txt');
  let weights;
  if (has('model.safetensors')) weights = ['model.safetensors'];
  else if (has('model.safetensors.index.json')) weights = ['model.safetensors.index.json']; // and the shards it names
  else throw new AddModelError('the repo has no model.safetensors (or sharded index); a pytorch_model.bin is not read: pick a repo with safetensors weights');
  return ['config.json', ...tokenizer, ...weights, ...OPTIONAL.filter(has)];
}

/// A GET that names the address when the network fails.
async function get(url) {
  try {
    return await fetch(url, { redirect: 'follow' });
  } catch (e) {
    throw new AddModelError(`${url}: ${e.cause?.code ?? e.cause?.message ?? e.message} (does this machine reach the hub? HF_ENDPOINT names a mirror)`);
  }
}

async function download(url, to, log) {
  const res = await get(url);
  if (!res.ok) throw new AddModelError(`${url}: HTTP ${res.status}`);
  const part = `${to}.part`;
  try {
    await pipeline(Readable.fromWeb(res.body), createWriteStream(part));
  } catch (e) {
    rmSync(part, { force: true });
    throw new AddModelError(`${url}: the download broke off (${e.cause?.code ?? e.message}); run the command again`);
  }
  const want = Number(res.headers.get('content-length'));
  const got = statSync(part).size;
  if (want && got !== want) {
    rmSync(part);
    throw new AddModelError(`${url}: ${got} of ${want} bytes arrived; run the command again`);
  }
  renameSync(part, to);
  log(`  ${to.split('/').slice(-2).join('/')} (${(got / 1e6).toFixed(1)} MB)`);
}

/// The chosen .gguf of a llama.cpp repo, by the page's rule (a Rust binary,
/// so the script and the page can never pick differently). Run without
/// blocking: a first build takes minutes, and a blocked event loop leaves the
/// hub's kept-alive connection dead for the next request.
async function pickGguf(listingBytes, selector) {
  const args = ['run', '-q', '-p', 'ntl-cli', '--bin', 'gguf-pick', '--', ...(selector ? [selector] : [])];
  const run = promisify(execFile)('cargo', args, { cwd: ROOT, maxBuffer: 1 << 20 });
  run.child.stdin.end(listingBytes);
  try {
    return JSON.parse((await run).stdout);
  } catch (e) {
    const why = e.stderr?.toString().trim().split('\n').pop() || e.message;
    throw new AddModelError(why.replace(/^gguf-pick: /, ''));
  }
}

export async function addModel(spec, { into = join(ROOT, 'www/models'), as, endpoint = process.env.HF_ENDPOINT || 'https://huggingface.co', log = console.log } = {}) {
  const [repo, selector] = spec.split(/:(.*)/s);
  if (!REPO.test(repo)) throw new AddModelError(`\`${repo}\` is not a hub repo id (owner/name)`);
  const folder = as ?? repo.split('/')[1];
  if (!PLAIN.test(folder) || folder === 'kjv-gpt2') throw new AddModelError(`\`${folder}\` cannot be a model folder's name: letters, digits, -, _ and . only (and not the bundled kjv-gpt2)`);
  const base = endpoint.replace(/\/$/, '');
  const res = await get(`${base}/api/models/${repo}/tree/main`);
  if (res.status === 401 || res.status === 404) throw new AddModelError(`the hub has no public repo ${repo} (HTTP ${res.status})`);
  if (!res.ok) throw new AddModelError(`the hub's file list for ${repo}: HTTP ${res.status}`);
  const listingBytes = Buffer.from(await res.arrayBuffer());
  let listing;
  try { listing = JSON.parse(listingBytes.toString()); } catch { throw new AddModelError(`the hub's file list for ${repo} is not JSON`); }
  const paths = listing.filter((e) => e.type === 'file').map((e) => e.path);
  const ggufRepo = paths.some((p) => p.toLowerCase().endsWith('.gguf')) && !paths.includes('config.json');
  if (selector && !ggufRepo) throw new AddModelError(`${repo} holds no .gguf files, so \`:${selector}\` names nothing`);
  let files; // [name in the repo, name in the folder]
  if (ggufRepo) {
    const chosen = await pickGguf(listingBytes, selector);
    if (!chosen.runs_here) throw new AddModelError(`${chosen.file} is in a type the page cannot run; choose another with :TAG`);
    files = [[chosen.file, 'model.gguf'], ...(paths.includes('tokenizer.json') ? [['tokenizer.json', 'tokenizer.json']] : [])];
  } else {
    files = safetensorsFiles(paths).map((p) => [p, p]);
  }
  const dir = join(into, folder);
  if (existsSync(dir)) throw new AddModelError(`${dir} exists; remove it or give --as ANOTHER_NAME`);
  mkdirSync(dir, { recursive: true });
  log(`${repo} → ${dir}`);
  try {
    for (const [from, to] of files) await download(`${base}/${repo}/resolve/main/${from}`, join(dir, to), log);
    const shardIndex = join(dir, 'model.safetensors.index.json');
    if (existsSync(shardIndex)) {
      const shards = [...new Set(Object.values(JSON.parse(readFileSync(shardIndex, 'utf8')).weight_map ?? {}))];
      const bad = shards.find((f) => !PLAIN.test(f) || !paths.includes(f));
      if (bad !== undefined) throw new AddModelError(`the shard index names \`${bad}\`, which is not a file of the repo`);
      for (const f of shards) await download(`${base}/${repo}/resolve/main/${f}`, join(dir, f), log);
      files.push(...shards.map((f) => [f, f]));
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  indexModels(into);
  log(`open the page with ?model=models/${folder}/ (listed in ${join(into, 'index.json')})`);
  return { folder, dir, files: files.map(([, to]) => to) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (name) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const [, value] = args.splice(i, 2);
    if (!value) { console.error(`${name} needs a value`); process.exit(2); }
    return value;
  };
  const as = opt('--as');
  const into = opt('--into');
  if (args.length !== 1) {
    console.error('usage: scripts/add-model.sh OWNER/NAME[:TAG|:FILE.gguf] [--as FOLDER] [--into DIR]');
    process.exit(2);
  }
  try {
    await addModel(args[0], { as, into: into && resolve(into) });
  } catch (e) {
    if (!(e instanceof AddModelError)) throw e;
    console.error(`add-model: ${e.message}`);
    process.exit(2);
  }
}
