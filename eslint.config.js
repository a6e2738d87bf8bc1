// One lint setup for the whole workspace. The import rules encode the architecture
// (docs/architecture.md "What may import what"); each message says why.
import tseslint from 'typescript-eslint';

const why = {
  engine:
    'the engine is heavy WebAssembly compute: only job handlers (apps/server/src/jobs) and the CLI may import it',
  app: 'packages are pure libraries and never depend on an app',
  jobs: 'HTTP routes enqueue jobs through src/queue; they never import job handlers',
  sql: 'SQL lives only in apps/server/src/db',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.cellcloud-test/**', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@cellcloud/server*', '@cellcloud/web*'], message: why.app }] },
      ],
    },
  },
  {
    files: ['packages/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@cellcloud/*', 'node:*'], message: 'contracts import nothing but zod' }] },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@cellcloud/engine*', 'scran.js'], message: why.engine },
            { group: ['@cellcloud/server*'], message: why.app },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/jobs/**', 'apps/server/src/entry/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        // services may read the engine identity the result cache keys on (engine/identity.ts reads files only)
        {
          paths: [{ name: '@cellcloud/engine', message: why.engine }],
          patterns: [
            { group: ['@cellcloud/engine/*', '!@cellcloud/engine/identity', 'scran.js'], message: why.engine },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/jobs/**', '@cellcloud/engine*'], message: why.jobs },
            { group: ['pg', '@electric-sql/pglite'], message: why.sql },
          ],
        },
      ],
    },
  },
);
