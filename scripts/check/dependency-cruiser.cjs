// dependency-cruiser configuration for `scripts/check/cycles.mjs` (run by `npm test`): a cycle of
// value imports anywhere in apps/ or packages/ is an error. Type-only imports (`import type`,
// `import { type X }` when every name is a type) are erased at compile time and never load a
// module, so a cycle that passes through one is allowed.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-value-import-cycle',
      severity: 'error',
      comment:
        'Modules that import each other (through value imports) load in an order that depends on who is imported first; break the loop (move the shared part into a module both import, or pass the dependency in).',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'type-import'] } },
    },
    {
      name: 'no-job-handlers-above-jobs',
      severity: 'error',
      comment:
        'services, HTTP routes and completion handlers never load job handlers, not even by a dynamic import() (which ESLint does not see): the entry point starts the worker (docs/architecture.md "What may import what").',
      from: { path: '^apps/server/src/(services|http|completion)/' },
      to: { path: '^apps/server/src/jobs/', dependencyTypesNot: ['type-only', 'type-import'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '(^|/)dist/', '\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
    skipAnalysisNotInRules: true,
  },
};
