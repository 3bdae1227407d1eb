// A static server for dist/ on 127.0.0.1 only, with the right MIME types and
// the page's Content-Security-Policy as a header (so the worker gets it too).
// It also makes the page cross-origin isolated (COOP + COEP), which is what
// lets the page use the threaded engine worker; `--single-thread` leaves the
// isolation headers off, as on a static host that cannot set headers.
// Usage: node scripts/serve.mjs DIR [PORT] [--single-thread]   (PORT 0 = any free port; prints the URL)
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json',
  '.safetensors': 'application/octet-stream', '.png': 'image/png', '.svg': 'image/svg+xml',
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
export function serve(dir, port = 0, { isolated = true, cut = () => false } = {}) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(root, path));
      if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      const headers = { 'Content-Type': TYPES[extname(file)] || 'application/octet-stream', 'Content-Length': body.length, 'Cache-Control': 'no-cache' };
      // The page's own CSP (with its loader's hash) is in index.html; workers and other files get the header.
      if (extname(file) !== '.html') headers['Content-Security-Policy'] = CSP;
      if (isolated) Object.assign(headers, ISOLATION);
      if (cut(path)) {
        res.writeHead(200, headers);
        res.write(body.subarray(0, body.length >> 1), () => res.destroy());
        return;
      }
      res.writeHead(200, headers).end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
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
