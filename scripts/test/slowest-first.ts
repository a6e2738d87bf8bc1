import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files run longest first, by the seconds each took in a full run (`durations.json` beside
 * this file, keyed `project:path`; refreshed from a run's reports with
 * `node scripts/test/update-durations.mjs`). Vitest does this itself from its results cache, but a
 * fresh clone (CI) has none and falls back to the largest files first: on two workers a 100-s file
 * could then start last and run alone at the end (server on PostgreSQL: 487 s against ~300 s of
 * work per worker). The committed list wins over vitest's cache (so its "failed files first" is
 * not kept). Files missing from the list run first, in vitest's own order: a new file is as
 * likely to be long as short, and a short one costs nothing at the start while a long one at the
 * end runs alone (the unlisted run-streamed.test.ts, ~275 s, started after every listed file).
 */
const durations: Record<string, number> = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'durations.json'), 'utf8'),
);

/** The seconds a file missing from durations.json counts as: before every listed file. */
const UNLISTED = 1e6;

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const root = this.ctx.config.root;
    const seconds = (f: TestSpecification) =>
      durations[`${f.project.name}:${path.relative(root, f.moduleId).split(path.sep).join('/')}`] ?? UNLISTED;
    const position = new Map(base.map((f, i) => [f, i]));
    return [...base].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        seconds(b) - seconds(a) ||
        position.get(a)! - position.get(b)!,
    );
  }
}
