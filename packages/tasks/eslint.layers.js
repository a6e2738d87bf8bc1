// Lint blocks of the task folders (packages/tasks/README.md "Layers"), spread at the end of the
// root eslint.config.js. ESLint keeps one `no-restricted-imports` setting per file (the last block
// that matches), so each block lists every rule its files are under, and the blocks do not overlap.
import { builtinModules } from 'node:module';
import { readdirSync, statSync } from 'node:fs';

const src = new URL('./src/', import.meta.url);
const TASKS = readdirSync(src).filter(
  (d) => !d.startsWith('_') && d !== 'generated' && statSync(new URL(d, src)).isDirectory(),
);
const at = (rel) => `packages/tasks/src/${rel}`;

const why = {
  app: 'packages are pure libraries and never depend on an app',
  light:
    'contract.ts, memory.ts and figures.ts load in the API process and the browser: zod, @cellcloud/contracts and _shared/{contract,figures} only (no engine, no UI, no Node built-ins)',
  engineUi: "a task's engine layer is compute: it never imports UI (react, antd, echarts) or the web layer",
  webEngine:
    "a task's web layer runs in the browser: never the engine, scran.js or its engine folder; the app's pieces come through _shared/web's TaskHost",
  webFormats:
    'the web layer uses only the browser-safe entries of formats (palettes, table-export, artifacts-decode, color-space)',
  otherTask:
    "a task folder never imports another task's folder: what tasks share goes to src/_shared/<layer>",
  registry:
    'the generated registries and the package entry points are for the package consumers, not the task folders',
};

const apps = [
  {
    group: ['@cellcloud/server', '@cellcloud/server/*', '@cellcloud/web', '@cellcloud/web/*'],
    message: why.app,
  },
  { regex: '^(\\.\\./)+apps/', message: why.app },
];
const registry = [
  { group: ['@cellcloud/tasks', '@cellcloud/tasks/*'], message: why.registry },
  { regex: '^(\\.\\./)+generated/', message: why.registry },
];
const ui = (message) => [
  {
    group: ['react', 'react/*', 'react-dom', 'react-dom/*', 'antd', 'antd/*', '@tanstack/*', 'react-i18next'],
    message,
  },
  { group: ['echarts', 'echarts/*'], message, allowTypeImports: true },
];
const engine = (message) => [{ group: ['@cellcloud/engine', '@cellcloud/engine/*', 'scran.js'], message }];
const node = (message) => ({
  paths: builtinModules.map((name) => ({ name, message })),
  patterns: [{ group: ['node:*', ...builtinModules.map((m) => `${m}/*`)], message }],
});
// (the bare name as a regex: a gitignore-style group cannot re-include what is under it)
const formatsExcept = (message, ...allowed) => [
  { regex: '^@cellcloud/formats$', message },
  { group: ['@cellcloud/formats/*', ...allowed.map((a) => `!@cellcloud/formats/${a}`)], message },
];
/** Relative imports into a sibling layer: `./engine/…`, `../web/…`, `../../_shared/web/…`. */
const into = (dirs, message) => [{ regex: `^(\\.\\.?/)+(${dirs})(/|$)`, message }];
const others = (task) => {
  const list = TASKS.filter((t) => t !== task);
  return list.length ? [{ regex: `^(\\.\\./)+(${list.join('|')})/`, message: why.otherTask }] : [];
};

function block(files, { paths = [], patterns = [] }) {
  return { files, rules: { 'no-restricted-imports': ['error', { paths, patterns }] } };
}
const light = (extra = []) => {
  const n = node(why.light);
  return {
    paths: n.paths,
    patterns: [
      ...apps,
      ...registry,
      ...n.patterns,
      ...engine(why.light),
      ...ui(why.light),
      ...formatsExcept(why.light, 'palettes'),
      ...into('engine|web|_shared/engine|_shared/web', why.light),
      ...extra,
    ],
  };
};

export const taskLayers = [
  block([at('**/*.{ts,tsx}')], { patterns: [...apps] }),
  block([at('_shared/contract/**/*.ts'), at('_shared/figures/**/*.ts')], light()),
  block([at('_shared/engine/**/*.ts')], {
    patterns: [...apps, ...registry, ...ui(why.engineUi), ...into('web|_shared/web', why.engineUi)],
  }),
  block([at('_shared/web/**/*.{ts,tsx}')], {
    patterns: [
      ...apps,
      ...registry,
      ...engine(why.webEngine),
      ...formatsExcept(why.webFormats, 'palettes', 'table-export', 'artifacts-decode', 'color-space'),
      ...into('engine|_shared/engine', why.webEngine),
    ],
  }),
  ...TASKS.flatMap((task) => [
    block(
      [at(`${task}/contract.ts`), at(`${task}/memory.ts`), at(`${task}/figures.ts`)],
      light(others(task)),
    ),
    block([at(`${task}/engine/**/*.ts`)], {
      patterns: [
        ...apps,
        ...registry,
        ...ui(why.engineUi),
        ...into('web|_shared/web', why.engineUi),
        ...others(task),
      ],
    }),
    block([at(`${task}/web/**/*.{ts,tsx}`)], {
      patterns: [
        ...apps,
        ...registry,
        ...engine(why.webEngine),
        ...formatsExcept(why.webFormats, 'palettes', 'table-export', 'artifacts-decode', 'color-space'),
        ...into('engine|memory|_shared/engine', why.webEngine),
        ...others(task),
      ],
    }),
  ]),
];
