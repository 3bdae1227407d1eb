// Lists the page's files in dist/site-files.json, so the page can pack a
// lesson with itself (a lesson package): everything the single-threaded page
// needs to run offline — not the built-in lessons (a package carries its
// own), not the threaded worker (an LMS frame is never cross-origin isolated).
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const dist = process.argv[2] ?? 'dist';
const left = (p) => p === 'site-files.json' || p === 'lesson.schema.json' || p.startsWith('lessons/') || p.startsWith('worker_mt');
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) { walk(full); continue; }
    const path = relative(dist, full).split(sep).join('/');
    if (!left(path)) files.push({ path, bytes: statSync(full).size });
  }
})(dist);
writeFileSync(join(dist, 'site-files.json'), JSON.stringify(files, null, 1) + '\n');
console.log(`site-files: ${files.length} files, ${(files.reduce((s, f) => s + f.bytes, 0) / 1e6).toFixed(1)} MB`);
