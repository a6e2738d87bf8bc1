// `npm test` check: no import cycle of value imports in apps/ and packages/. dependency-cruiser
// (config beside this file) follows static and dynamic imports and re-exports; type-only imports
// are erased at compile time, so a cycle through one is allowed. Prints every cycle's files and
// exits 1 when there is one. The config's other rule catches the dynamic import() of a job handler
// above src/jobs, which ESLint's import rules do not see. Run alone: `node scripts/check/cycles.mjs`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const config = path.join('scripts', 'check', 'dependency-cruiser.cjs');
const r = spawnSync('npx', ['depcruise', '--config', config, '--output-type', 'json', 'apps', 'packages'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 512 * 1024 * 1024,
});
let result;
try {
  result = JSON.parse(r.stdout);
} catch {
  console.error(`✖ dependency-cruiser did not answer (exit ${r.status}):\n${r.stderr}`);
  process.exit(1);
}
const { summary } = result;
const cycles = summary.violations.filter((v) => v.rule.name === 'no-value-import-cycle');
// A loop of n files is reported once per file in it: print each loop once.
const seen = new Set();
const loops = [];
for (const v of cycles) {
  const files = [v.from, ...(v.cycle ?? []).map((c) => (typeof c === 'string' ? c : c.name))];
  const key = [...new Set(files)].sort().join('\n');
  if (seen.has(key)) continue;
  seen.add(key);
  loops.push(files);
}
for (const files of loops) console.error(`✖ import cycle:\n    ${files.join('\n  → ')}`);
const others = summary.violations.filter((v) => v.rule.name !== 'no-value-import-cycle');
for (const v of others) console.error(`✖ ${v.rule.name}: ${v.from} → ${v.to}`);
console.log(
  `import cycles: ${loops.length} (${summary.totalCruised} modules, ${summary.totalDependenciesCruised} imports)`,
);
process.exit(loops.length || others.length ? 1 : 0);
