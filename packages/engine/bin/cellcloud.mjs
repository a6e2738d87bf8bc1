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
const r = spawnSync(
  'node',
  ['--import', 'tsx', path.join(here, '../src/cli/main.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', env },
);
process.exit(r.status ?? 1);
