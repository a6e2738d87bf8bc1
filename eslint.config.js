// One lint setup for the whole workspace. The import rules encode the architecture
// (docs/architecture.md "What may import what"); each message says why. ESLint keeps one
// `no-restricted-imports` setting per file (the last block that matches), so every layer below
// gets one block listing all the rules it is under, and the layers' files do not overlap.
// packages/testkit/test/boundaries.test.ts checks that each rule refuses its probe.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import { taskLayers } from './packages/tasks/eslint.layers.js';

const why = {
  engine:
    'the engine is heavy WebAssembly compute: only job handlers (apps/server/src/jobs) and the CLI may import it',
  app: 'packages are pure libraries and never depend on an app',
  jobs: 'HTTP routes enqueue jobs through src/queue; they never import job handlers',
  sql: 'SQL lives only in apps/server/src/db',
  contracts:
    'contracts import nothing but zod: they load everywhere, the browser included (no Node built-ins)',
  formatsEngine:
    'formats sit below the engine (the engine reads and writes through formats), never the reverse',
  formatsIo:
    'formats take the bytes their callers pass (Uint8Arrays, chunk iterators): only src/node-sources.ts touches the file system',
  webFormats:
    'the web app uses only the browser-safe entries of formats (artifacts-decode, table-export, color-space, palettes: pure functions, no I/O, no WebAssembly)',
  servicesJobs:
    'services enqueue jobs through ctx.queue and never import job handlers; the entry point (src/entry) starts the worker',
  completion:
    'src/completion sits below services and jobs (both import it), so it imports neither, nor http or entry',
  lower:
    'db, storage, queue and i18n are the bottom layers of the server: they never import services, jobs, http or entry',
  jobsUp: 'job handlers run in workers: they never import HTTP routes or entry points',
};

// What a layer may not import: `paths` are exact module names, `patterns` regexes over the import
// source (relative paths climbing into a sibling folder: `^(\.\./)+jobs/`).
const up = (dir) => `^(\\.\\./)+${dir}/`;
const ban = {
  apps: {
    patterns: [
      {
        group: ['@cellcloud/server', '@cellcloud/server/*', '@cellcloud/web', '@cellcloud/web/*'],
        message: why.app,
      },
      { regex: up('apps'), message: why.app },
    ],
  },
  engine: {
    patterns: [{ group: ['@cellcloud/engine', '@cellcloud/engine/*', 'scran.js'], message: why.engine }],
  },
  // services may read the engine identity the result cache keys on (engine/identity.ts reads files only)
  servicesEngine: {
    paths: [{ name: '@cellcloud/engine', message: why.engine }],
    patterns: [
      { group: ['@cellcloud/engine/*', '!@cellcloud/engine/identity', 'scran.js'], message: why.engine },
    ],
  },
  webApps: { patterns: [{ group: ['@cellcloud/server', '@cellcloud/server/*'], message: why.app }] },
  webFormats: {
    paths: [{ name: '@cellcloud/formats', message: why.webFormats }],
    patterns: [
      {
        // not the bare name here: a gitignore-style group cannot re-include what is under it
        group: [
          '@cellcloud/formats/*',
          '!@cellcloud/formats/artifacts-decode',
          '!@cellcloud/formats/table-export',
          '!@cellcloud/formats/color-space',
          '!@cellcloud/formats/palettes',
        ],
        message: why.webFormats,
      },
    ],
  },
  contracts: {
    paths: builtinModules.map((name) => ({ name, message: why.contracts })),
    patterns: [
      { group: ['node:*', '@cellcloud/*', ...builtinModules.map((m) => `${m}/*`)], message: why.contracts },
    ],
  },
  formatsEngine: {
    patterns: [
      { group: ['@cellcloud/engine', '@cellcloud/engine/*', 'scran.js'], message: why.formatsEngine },
    ],
  },
  formatsIo: {
    paths: builtinModules.map((name) => ({ name, message: why.formatsIo })),
    patterns: [{ group: ['node:*'], message: why.formatsIo }],
  },
  sql: {
    paths: ['pg', '@electric-sql/pglite'].map((name) => ({ name, message: why.sql })),
    patterns: [{ group: ['pg/*', '@electric-sql/pglite/*'], message: why.sql }],
  },
  httpJobs: { patterns: [{ regex: up('jobs'), message: why.jobs }] },
  servicesJobs: { patterns: [{ regex: up('jobs'), message: why.servicesJobs }] },
  completion: { patterns: [{ regex: up('(services|jobs|http|entry)'), message: why.completion }] },
  lower: { patterns: [{ regex: up('(services|jobs|http|entry)'), message: why.lower }] },
  jobsUp: { patterns: [{ regex: up('(http|entry)'), message: why.jobsUp }] },
};

/** One flat-config block: `files` (minus `ignores`) may import none of `bans`. */
function layer(files, ignores, ...bans) {
  const paths = bans.flatMap((b) => b.paths ?? []);
  const patterns = bans.flatMap((b) => b.patterns ?? []);
  return {
    files,
    ...(ignores.length ? { ignores } : {}),
    rules: { 'no-restricted-imports': ['error', { paths, patterns }] },
  };
}

const srv = (dir) => `apps/server/src/${dir}/**/*.ts`;
const serverLayers = [
  'db',
  'storage',
  'queue',
  'i18n',
  'http',
  'services',
  'completion',
  'jobs',
  'entry',
  'cli',
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.cellcloud-test/**', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  // Boundaries (docs/architecture.md "What may import what"). packages/tasks has its own block.
  layer(['packages/**/*.{ts,tsx}'], [], ban.apps),
  layer(['packages/contracts/**/*.ts'], [], ban.apps, ban.contracts),
  layer(
    ['packages/formats/src/**/*.ts'],
    ['packages/formats/src/node-sources.ts'],
    ban.apps,
    ban.formatsEngine,
    ban.formatsIo,
  ),
  layer(['packages/formats/**/*.ts'], ['packages/formats/src/**/*.ts'], ban.apps, ban.formatsEngine),
  layer(['packages/formats/src/node-sources.ts'], [], ban.apps, ban.formatsEngine),
  layer(['apps/web/**/*.{ts,tsx}'], [], ban.engine, ban.webApps, ban.webFormats),
  layer(['apps/server/src/**/*.ts'], serverLayers.map(srv), ban.engine, ban.sql),
  layer(['db'].map(srv), [], ban.engine, ban.lower),
  layer(['storage', 'queue', 'i18n'].map(srv), [], ban.engine, ban.sql, ban.lower),
  layer([srv('http')], [], ban.engine, ban.sql, ban.httpJobs),
  layer([srv('services')], [], ban.servicesEngine, ban.sql, ban.servicesJobs),
  layer([srv('completion')], [], ban.engine, ban.sql, ban.completion),
  layer([srv('jobs')], [], ban.sql, ban.jobsUp),
  layer([srv('entry')], [], ban.sql),
  layer([srv('cli')], [], ban.engine, ban.sql),
  // the task folders' layers (packages/tasks/eslint.layers.js)
  ...taskLayers,
);
