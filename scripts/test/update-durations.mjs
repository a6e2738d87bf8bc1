// Refreshes scripts/test/durations.json (the order scripts/test/slowest-first.ts runs test files
// in) from the files' seconds of the last `npm test` (.cellcloud-test/*.seconds.json, written by
// scripts/test/file-seconds.ts; else its JSON reports, .cellcloud-test/*.json, or those of another
// checkout: `node scripts/test/update-durations.mjs /path/to/clone`): per `project:path`, the
// longest time a file took in any stage (server files run on PGlite and on PostgreSQL). Files the
// reports do not name keep their listed seconds, so a report of a few files (e.g.
// `npx vitest run --project e2e e2e/x.test.ts --reporter=json --outputFile.json=.cellcloud-test/x.json`)
// refreshes those only; `--only-reports` drops the rest (after a full run, for deleted files).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from '../lib.mjs';

const out = path.join(root, 'scripts/test/durations.json');
const args = process.argv.slice(2);
const onlyReports = args.includes('--only-reports');
const from = path.resolve(args.find((a) => !a.startsWith('--')) ?? root);
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
const listed = existsSync(out) && !onlyReports ? JSON.parse(readFileSync(out, 'utf8')) : {};
const seconds = {};
const names = readdirSync(reports).filter((f) => f.endsWith('.json'));
// the `*.seconds.json` of scripts/test/file-seconds.ts: each file's seconds, its hooks included
for (const name of names.filter((f) => f.endsWith('.seconds.json'))) {
  for (const [key, s] of Object.entries(JSON.parse(readFileSync(path.join(reports, name), 'utf8'))))
    seconds[key] = Math.max(seconds[key] ?? 0, s);
}
// a vitest JSON report counts a file from its first test's start, without its top-level
// beforeAll (pbmc3k.test.ts: 3.7 s for a run of minutes): only for files no seconds file names
const timed = new Set(Object.keys(seconds));
for (const name of names.filter((f) => !f.endsWith('.seconds.json'))) {
  const r = JSON.parse(readFileSync(path.join(reports, name), 'utf8'));
  for (const f of r.testResults ?? []) {
    const file = path.relative(from, f.name).split(path.sep).join('/');
    const key = `${projectOf(file)}:${file}`;
    if (timed.has(key)) continue;
    const s = Math.round((f.endTime - f.startTime) / 100) / 10;
    seconds[key] = Math.max(seconds[key] ?? 0, s);
  }
}
const measured = Object.keys(seconds).length;
const merged = { ...listed, ...seconds };
const sorted = Object.fromEntries(Object.entries(merged).sort((a, b) => b[1] - a[1]));
writeFileSync(out, JSON.stringify(sorted, null, 2) + '\n');
console.log(`${measured} files measured, ${Object.keys(sorted).length} listed → ${path.relative(root, out)}`);
