// A model hub that behaves like the real one, on 127.0.0.1:443 with real TLS
// (a self-signed certificate made at start; Chromium runs with
// --host-resolver-rules and --ignore-certificate-errors, see HUB_ARGS):
// `huggingface.co/{repo}/resolve/main/{file}` answers 302 to a CDN host on
// *.hf.co, both with CORS; 401 for a repo it does not know (as the hub does
// for missing and gated repos), 404 with x-error-code for a missing file;
// the CDN sends content-length, etag and accept-ranges and answers Range
// requests with 206. Faults are scripted per file: cut the body off at a
// fraction, answer a status a number of times (with Retry-After), or pace
// the bytes so a download takes a while. `/api/models/{repo}/tree/main`
// lists a repo's top-level files as the hub's tree API does. Every request is logged.
import { createServer } from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const HUB_ARGS = [
  '--host-resolver-rules=MAP huggingface.co 127.0.0.1, MAP *.hf.co 127.0.0.1',
  '--ignore-certificate-errors',
];
export const CDN = 'cas-bridge.xethub.hf.co';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Content-Range, Accept-Ranges, Content-Length, X-Error-Code, X-Repo-Commit, X-Linked-Size, X-Linked-ETag',
};

function certificate() {
  const dir = mkdtempSync(join(tmpdir(), 'ntl-hub-tls-'));
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2',
    '-subj', '/CN=huggingface.co', '-addext', 'subjectAltName=DNS:huggingface.co,DNS:*.hf.co,DNS:*.xethub.hf.co'], { stdio: 'ignore' });
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

/// `repos`: { 'owner/name': { 'config.json': Buffer, ... } }.
/// `faults`: { 'owner/name/file': [{ cutAt: 0.6 } | { status: 503, retryAfter: 1 } | { paceMs: 2000 } | { ignoreRange: true }, ...] },
/// each consumed by one request to the CDN (statuses: by the resolve request).
/// `claimed`: { 'owner/name/file': bytes } — the size the hub claims in its
/// HEAD answers and x-linked-size (a model too large to ship in a test).
export async function startHub(repos, { claimed = {} } = {}) {
  const log = [];
  const faults = {};
  const blobs = new Map(); // 'repo/etag' (the CDN's path) → { repo, file, body, etag }
  for (const [repo, files] of Object.entries(repos)) {
    for (const [file, body] of Object.entries(files)) {
      const etag = createHash('sha256').update(body).digest('hex');
      blobs.set(`${repo}/${etag}`, { repo, file, body, etag });
    }
  }
  const find = (repo, file) => [...blobs.values()].find((b) => b.repo === repo && b.file === file);
  const server = createServer(certificate(), (req, res) => {
    const host = (req.headers.host || '').split(':')[0];
    const url = new URL(req.url, `https://${host}`);
    const entry = { method: req.method, host, path: url.pathname, range: req.headers.range || null, status: 0, bytes: 0 };
    log.push(entry);
    const send = (status, headers, body) => {
      entry.status = status;
      res.writeHead(status, { ...CORS, ...headers });
      res.end(body);
    };
    if (req.method === 'OPTIONS') {
      entry.preflight = req.headers['access-control-request-headers'] || '';
      return send(204, { 'access-control-allow-headers': 'range, if-range, authorization', 'access-control-allow-methods': 'GET, HEAD' });
    }
    if (host === 'huggingface.co' && url.pathname.startsWith('/api/models/')) {
      // The tree listing: top-level files with their sizes, LFS ones (weights) with their pointer.
      const m = url.pathname.match(/^\/api\/models\/([^/]+\/[^/]+)\/tree\/main$/);
      if (!m || !repos[m[1]]) {
        return send(401, { 'x-error-code': 'RepoNotFound', 'content-type': 'application/json' }, '{"error":"Repository not found"}');
      }
      const tree = Object.entries(repos[m[1]]).filter(([file]) => !file.includes('/')).map(([file, body]) => {
        const size = claimed[`${m[1]}/${file}`] ?? body.length;
        const oid = createHash('sha1').update(body).digest('hex');
        const lfs = /\.(gguf|safetensors|bin)$/.test(file)
          ? { lfs: { oid: createHash('sha256').update(body).digest('hex'), size, pointerSize: 134 } } : {};
        return { type: 'file', oid, size: lfs.lfs ? size : body.length, path: file, ...lfs };
      });
      return send(200, { 'content-type': 'application/json' }, JSON.stringify(tree));
    }
    if (host === 'huggingface.co') {
      const m = url.pathname.match(/^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/);
      if (!m || !repos[m[1]]) {
        return send(401, { 'x-error-code': 'RepoNotFound', 'content-type': 'text/plain' }, 'Repository Not Found');
      }
      const [, repo, file] = m;
      const fault = faults[`${repo}/${file}`]?.[0];
      if (fault?.status) {
        faults[`${repo}/${file}`].shift();
        return send(fault.status, fault.retryAfter ? { 'retry-after': String(fault.retryAfter) } : {}, 'busy');
      }
      const blob = find(repo, file);
      if (!blob) return send(404, { 'x-error-code': 'EntryNotFound', 'content-type': 'text/plain' }, 'Entry not found');
      return send(302, {
        location: `https://${CDN}/xet-bridge-us/${blob.repo}/${blob.etag}?X-Amz-Expires=3600&response-content-disposition=inline`,
        'x-linked-size': String(claimed[`${repo}/${file}`] ?? blob.body.length),
        'x-linked-etag': `"${blob.etag}"`,
        'x-repo-commit': '0123456789abcdef0123456789abcdef01234567',
      });
    }
    if (host === CDN) {
      const blob = blobs.get(url.pathname.replace(/^\/xet-bridge-us\//, ''));
      if (!blob) return send(403, {}, 'AccessDenied');
      Object.assign(entry, { repo: blob.repo, file: blob.file });
      const common = { etag: `"${blob.etag}"`, 'accept-ranges': 'bytes', 'content-type': 'application/octet-stream' };
      if (req.method === 'HEAD') return send(200, { ...common, 'content-length': claimed[`${blob.repo}/${blob.file}`] ?? blob.body.length });
      const fault = faults[`${blob.repo}/${blob.file}`]?.[0];
      if (fault && !fault.status) faults[`${blob.repo}/${blob.file}`].shift();
      let start = 0;
      // A server that cannot resume answers a Range request with the whole file.
      const range = fault?.ignoreRange ? null : req.headers.range?.match(/^bytes=(\d+)-$/);
      if (range) start = Number(range[1]);
      const body = blob.body.subarray(start);
      const headers = { ...common, 'content-length': body.length };
      if (range) headers['content-range'] = `bytes ${start}-${blob.body.length - 1}/${blob.body.length}`;
      entry.status = range ? 206 : 200;
      res.writeHead(entry.status, { ...CORS, ...headers });
      if (fault?.cutAt) {
        // Send up to the cut, then close the connection mid-body: gracefully
        // (FIN after the bytes; a reset would throw away what is still in
        // the sockets' buffers), and a moment later, as a real cut comes
        // while the page is reading. The browser still drops the chunks
        // its stream had queued but the page had not read when the error
        // lands, so the page may hold a little less than was sent.
        const upto = Math.floor(blob.body.length * fault.cutAt) - start;
        entry.bytes = upto;
        res.write(body.subarray(0, upto), () => setTimeout(() => res.socket?.end(), 300));
        return;
      }
      if (fault?.paceMs) {
        const parts = 20;
        const size = Math.ceil(body.length / parts);
        let i = 0;
        const next = () => {
          if (res.destroyed) return;
          if (i >= parts) { res.end(); return; }
          res.write(body.subarray(i * size, (i + 1) * size));
          entry.bytes += Math.min(size, Math.max(0, body.length - i * size));
          i++;
          setTimeout(next, fault.paceMs / parts);
        };
        return next();
      }
      entry.bytes = body.length;
      return res.end(body);
    }
    send(404, {}, 'no such host here');
  });
  await new Promise((ok, fail) => { server.once('error', fail); server.listen(443, '127.0.0.1', ok); });
  return {
    log,
    /// Scripts faults for one file: `hub.fault('owner/name', 'model.safetensors', { cutAt: 0.6 })`.
    fault: (repo, file, ...fs) => { (faults[`${repo}/${file}`] ||= []).push(...fs); },
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(ok); }),
  };
}

/// A safetensors file's tensors split in two files, and the index that lists them.
export function shardSafetensors(bytes) {
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  const data = bytes.subarray(8 + n);
  const names = Object.keys(header).filter((k) => k !== '__metadata__').sort();
  const half = [names.slice(0, names.length >> 1), names.slice(names.length >> 1)];
  const files = {};
  const weightMap = {};
  let totalSize = 0;
  half.forEach((group, i) => {
    const name = `model-0000${i + 1}-of-00002.safetensors`;
    const h = { __metadata__: { format: 'pt' } };
    const parts = [];
    let at = 0;
    for (const k of group) {
      const [b, e] = header[k].data_offsets;
      h[k] = { ...header[k], data_offsets: [at, at + (e - b)] };
      parts.push(data.subarray(b, e));
      at += e - b;
      weightMap[k] = name;
    }
    totalSize += at;
    const json = Buffer.from(JSON.stringify(h));
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(json.length));
    files[name] = Buffer.concat([len, json, ...parts]);
  });
  files['model.safetensors.index.json'] = Buffer.from(JSON.stringify({ metadata: { total_size: totalSize }, weight_map: weightMap }));
  return files;
}

/// tokenizer.json as the older vocab.json + merges.txt pair.
export function vocabAndMerges(tokenizerJson) {
  const t = JSON.parse(tokenizerJson);
  const merges = t.model.merges.map((m) => (Array.isArray(m) ? m.join(' ') : m));
  return {
    'vocab.json': Buffer.from(JSON.stringify(t.model.vocab)),
    'merges.txt': Buffer.from('#version: 0.2\n' + merges.join('\n') + '\n'),
  };
}
