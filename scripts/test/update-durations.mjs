// Refreshes scripts/test/durations.json (the order scripts/test/slowest-first.ts runs test files
// in) from the JSON reports of the last `npm test` (.cellcloud-test/*.json, or those of another
// checkout: `node scripts/test/update-durations.mjs /path/to/clone`): per `project:path`, the
// longest time a file took in any stage (server files run on PGlite and on PostgreSQL).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from '../lib.mjs';

const out = path.join(root, 'scripts/test/durations.json');
const from = path.resolve(process.argv[2] ?? root);
const reports = path.join(from, '.cellcloud-test');
// the reports do not name the project: the folders are vitest.config.ts's `include` globs
const projectOf = (file) =>
  file.startsWith('e2e/')
    ? 'e2e'
    : file.startsWith('apps/server/test/')
      ? 'server'
      : file.startsWith('deploy/')
        ? 'deploy'
        : 'unit';
const seconds = {};
for (const name of readdirSync(reports).filter((f) => f.endsWith('.json'))) {
  const r = JSON.parse(readFileSync(path.join(reports, name), 'utf8'));
  for (const f of r.testResults) {
    const file = path.relative(from, f.name).split(path.sep).join('/');
    const key = `${projectOf(file)}:${file}`;
    const s = Math.round((f.endTime - f.startTime) / 100) / 10;
    seconds[key] = Math.max(seconds[key] ?? 0, s);
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort((a, b) => b[1] - a[1]));
writeFileSync(out, JSON.stringify(sorted, null, 2) + '\n');
console.log(`${Object.keys(sorted).length} files → ${path.relative(root, out)}`);
