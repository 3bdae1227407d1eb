// Trunk injects one inline <script type="module"> that boots the app. Rather
// than allow all inline scripts, add that script's sha256 to the page's CSP.
// Usage: node scripts/csp-hash.mjs dist/index.html
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2] || 'dist/index.html';
let html = readFileSync(file, 'utf8');
const scripts = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => m[1]);
if (scripts.length === 0) throw new Error(`${file}: no inline module script found`);
const hashes = scripts.map((s) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`).join(' ');
const before = html;
html = html.replace(/script-src 'self' 'wasm-unsafe-eval'[^;"]*/, `script-src 'self' 'wasm-unsafe-eval' ${hashes}`);
if (html === before) throw new Error(`${file}: no script-src 'self' 'wasm-unsafe-eval' in the CSP to extend`);
writeFileSync(file, html);
console.log(`csp: allowed ${scripts.length} inline loader script(s)`);
