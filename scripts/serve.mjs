// A static server for dist/ on 127.0.0.1 only, with the right MIME types and
// the page's Content-Security-Policy as a header (so the worker gets it too).
// It also makes the page cross-origin isolated (COOP + COEP), which is what
// lets the page use the threaded engine worker; `--single-thread` leaves the
// isolation headers off, as on a static host that cannot set headers.
// Files stream from disk with HEAD, byte ranges and an etag, so a model
// folder of a gigabyte beside the page (dist/models/NAME/) is measured without
// a download and a broken download resumes, as from the model hub.
// Usage: node scripts/serve.mjs DIR [PORT] [--single-thread]   (PORT 0 = any free port; prints the URL)
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json',
  '.safetensors': 'application/octet-stream', '.gguf': 'application/octet-stream', '.txt': 'text/plain; charset=utf-8', '.png': 'image/png', '.svg': 'image/svg+xml',
};

export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; " +
  "connect-src 'self' https://huggingface.co https://*.huggingface.co https://*.hf.co; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'";

// Cross-origin isolation. The hub's files are fetched with CORS, which COEP
// allows; CORP lets an isolated course page embed this one in an iframe.
export const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

/// `cut(path)`: tests only — when it says true, the file's headers promise
/// the whole file, half of it is sent and the connection is dropped (a
/// download that breaks off, for browsers the test cannot route).
/// `seen(method, path)`: tests only — told of every request.
export function serve(dir, port = 0, { isolated = true, cut = () => false, seen = () => {} } = {}) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      seen(req.method, path);
      let file = normalize(join(root, path));
      if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
      let info = await stat(file);
      if (info.isDirectory()) { file = join(file, 'index.html'); info = await stat(file); }
      const size = info.size;
      const headers = {
        'Content-Type': TYPES[extname(file)] || 'application/octet-stream', 'Content-Length': size, 'Cache-Control': 'no-cache',
        'Accept-Ranges': 'bytes', 'ETag': `"${size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
      };
      // The page's own CSP (with its loader's hash) is in index.html; workers and other files get the header.
      if (extname(file) !== '.html') headers['Content-Security-Policy'] = CSP;
      if (isolated) Object.assign(headers, ISOLATION);
      if (req.method === 'HEAD') { res.writeHead(200, headers).end(); return; }
      if (cut(path)) {
        res.writeHead(200, headers);
        createReadStream(file, { end: (size >> 1) - 1 }).on('end', () => res.destroy()).pipe(res, { end: false });
        return;
      }
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range || '');
      if (range) {
        const start = Number(range[1]);
        const end = Math.min(range[2] ? Number(range[2]) : size - 1, size - 1);
        if (start > end) { res.writeHead(416, { 'Content-Range': `bytes */${size}` }).end(); return; }
        res.writeHead(206, { ...headers, 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${size}` });
        createReadStream(file, { start, end }).pipe(res);
        return;
      }
      res.writeHead(200, headers);
      createReadStream(file).pipe(res);
    } catch {
      if (!res.headersSent) res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      else res.destroy();
    }
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const isolated = !args.includes('--single-thread');
  const [dir = 'dist', port = '8080'] = args.filter((a) => !a.startsWith('--'));
  const server = await serve(dir, Number(port), { isolated });
  const { port: p } = server.address();
  console.log(isolated ? 'cross-origin isolated: the engine uses the threaded worker' : 'not isolated: the engine runs on one thread');
  console.log(`serving ${dir} at http://127.0.0.1:${p}/  (bundled offline model: http://127.0.0.1:${p}/?model=bundled)`);
}
