import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Vitest reporter: the seconds each test file took, hooks included, written as JSON
 * (`{"project:path": seconds}`) to the file named by CELLCLOUD_FILE_SECONDS (scripts/test.mjs sets
 * it per stage; scripts/test/update-durations.mjs reads it into durations.json).
 *
 * Why not the JSON reporter's times: its per-file start is the first test's start, so a file's
 * top-level `beforeAll` is not counted. Files that analyse pbmc3k once in a `beforeAll` were listed
 * at seconds (engine pbmc3k.test.ts 3.7 s for a run of minutes) and ran last, alone at the end.
 */
export default class FileSeconds implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const out = process.env.CELLCLOUD_FILE_SECONDS;
    if (!out) return;
    const seconds: Record<string, number> = {};
    for (const m of modules) {
      const d = m.diagnostic();
      const ms =
        d.prepareDuration + d.environmentSetupDuration + d.setupDuration + d.collectDuration + d.duration;
      const file = path.relative(m.project.config.root, m.moduleId).split(path.sep).join('/');
      seconds[`${m.project.name}:${file}`] = Math.round(ms / 100) / 10;
    }
    writeFileSync(out, JSON.stringify(seconds, null, 2) + '\n');
  }
}
