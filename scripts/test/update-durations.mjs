// Refreshes scripts/test/durations.json (the order scripts/test/slowest-first.ts runs test files
// in) from the JSON reports of the last `npm test` (.cellcloud-test/*.json, or those of another
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
for (const name of readdirSync(reports).filter((f) => f.endsWith('.json'))) {
  const r = JSON.parse(readFileSync(path.join(reports, name), 'utf8'));
  for (const f of r.testResults) {
    const file = path.relative(from, f.name).split(path.sep).join('/');
    const key = `${projectOf(file)}:${file}`;
    const s = Math.round((f.endTime - f.startTime) / 100) / 10;
    seconds[key] = Math.max(seconds[key] ?? 0, s);
  }
}
const measured = Object.keys(seconds).length;
const merged = { ...listed, ...seconds };
const sorted = Object.fromEntries(Object.entries(merged).sort((a, b) => b[1] - a[1]));
writeFileSync(out, JSON.stringify(sorted, null, 2) + '\n');
console.log(`${measured} files measured, ${Object.keys(sorted).length} listed → ${path.relative(root, out)}`);
