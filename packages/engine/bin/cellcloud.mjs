#!/usr/bin/env node
// `npx cellcloud …` from the repository root: the engine CLI, run with tsx on the pinned Node 24.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const env = {
  ...process.env,
  PATH: `${path.join(root, 'node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
};
// glibc malloc: buffers ≥ 1 MiB in their own mappings, two arenas — as the server's job child
// (src/malloc-tunables.ts explains and measures them; entries already set are kept)
const given = (env.GLIBC_TUNABLES ?? '').split(':').filter(Boolean);
const names = new Set(given.map((t) => t.split('=')[0]));
for (const [k, v] of [
  ['glibc.malloc.mmap_threshold', '1048576'],
  ['glibc.malloc.arena_max', '2'],
])
  if (!names.has(k)) given.push(`${k}=${v}`);
env.GLIBC_TUNABLES = given.join(':');
// The entry is @cellcloud/tasks' (the engine never imports it): `task` runs a task of its registry,
// `analyze` the engine's pipeline with the annotate task's in-analysis annotation.
const entry = path.join(root, 'packages/tasks/src/_cli/main.ts');
const r = spawnSync('node', ['--import', 'tsx', entry, ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
