import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The boundaries of docs/architecture.md "What may import what", as eslint.config.js enforces
 * them: each probe is an import a layer must not make, linted as if it were a file of that layer
 * (the ESLint Node API with the workspace's own config); it must be refused with the rule's
 * message, and a legitimate import at the same place must pass.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

interface Probe {
  what: string;
  file: string;
  refused: string;
  because: string;
  allowed: string;
}

const probes: Probe[] = [
  {
    what: 'services → pg (SQL only in src/db)',
    file: 'apps/server/src/services/probe.ts',
    refused: "import pg from 'pg';",
    because: 'SQL lives only in apps/server/src/db',
    allowed: "import { jobsRepo } from '../db/repos/jobs';",
  },
  {
    what: 'services → PGlite',
    file: 'apps/server/src/services/explore/probe.ts',
    refused: "import { PGlite } from '@electric-sql/pglite';",
    because: 'SQL lives only in apps/server/src/db',
    allowed: "import { jobsRepo } from '../../db/repos/jobs';",
  },
  {
    what: 'web → a formats writer',
    file: 'apps/web/src/features/explore/probe.ts',
    refused: "import { writeH5ad } from '@cellcloud/formats/write-h5ad';",
    because: 'the web app uses only the browser-safe entries of formats',
    allowed: "import { decodeCodes } from '@cellcloud/formats/artifacts-decode';",
  },
  {
    what: 'web → the formats readers',
    file: 'apps/web/src/features/explore/probe.tsx',
    refused: "import { readDataset } from '@cellcloud/formats';",
    because: 'the web app uses only the browser-safe entries of formats',
    allowed: "import { toCsv } from '@cellcloud/formats/table-export';",
  },
  {
    what: 'web → engine',
    file: 'apps/web/src/features/explore/probe.ts',
    refused: "import { runAnalysis } from '@cellcloud/engine';",
    because: 'the engine is heavy WebAssembly compute',
    allowed: "import { LIMITS } from '@cellcloud/contracts/constants';",
  },
  {
    what: 'formats → engine',
    file: 'packages/formats/src/probe.ts',
    refused: "import { runAnalysis } from '@cellcloud/engine';",
    because: 'formats sit below the engine',
    allowed: "import { LIMITS } from '@cellcloud/contracts/constants';",
  },
  {
    what: 'formats → the file system (outside node-sources)',
    file: 'packages/formats/src/probe.ts',
    refused: "import { readFileSync } from 'node:fs';",
    because: 'formats take the bytes their callers pass',
    allowed: "import { unzipSync } from 'fflate';",
  },
  {
    what: 'contracts → fs',
    file: 'packages/contracts/src/probe.ts',
    refused: "import { readFileSync } from 'fs';",
    because: 'contracts import nothing but zod',
    allowed: "import { z } from 'zod';",
  },
  {
    what: 'contracts → node:path',
    file: 'packages/contracts/src/probe.ts',
    refused: "import path from 'node:path';",
    because: 'contracts import nothing but zod',
    allowed: "import { z } from 'zod';",
  },
  {
    what: 'http routes → jobs',
    file: 'apps/server/src/http/routes/probe.ts',
    refused: "import { startWorker } from '../../jobs/runner';",
    because: 'HTTP routes enqueue jobs through src/queue',
    allowed: "import { jobsDeps } from '../../services/jobs-wire';",
  },
  {
    what: 'http routes → engine',
    file: 'apps/server/src/http/routes/probe.ts',
    refused: "import { runAnalysis } from '@cellcloud/engine';",
    because: 'the engine is heavy WebAssembly compute',
    allowed: "import { LIMITS } from '@cellcloud/contracts/constants';",
  },
  {
    what: 'services → jobs',
    file: 'apps/server/src/services/tasks/probe.ts',
    refused: "import { startWorker } from '../../jobs/runner';",
    because: 'services enqueue jobs through ctx.queue',
    allowed: "import { JobsService } from '../jobs';",
  },
  {
    what: 'services → engine compute',
    file: 'apps/server/src/services/probe.ts',
    refused: "import { runAnalysis } from '@cellcloud/engine';",
    because: 'the engine is heavy WebAssembly compute',
    allowed: "import { finishDegTask } from '../completion/deg-task';",
  },
  {
    what: 'completion → services',
    file: 'apps/server/src/completion/probe.ts',
    refused: "import { JobsService } from '../services/jobs';",
    because: 'src/completion sits below services and jobs',
    allowed: "import { downloadsRepo } from '../db/repos/downloads';",
  },
  {
    what: 'completion → jobs',
    file: 'apps/server/src/completion/probe.ts',
    refused: "import { startWorker } from '../jobs/runner';",
    because: 'src/completion sits below services and jobs',
    allowed: "import { degResultKey } from '../storage/keys';",
  },
  {
    what: 'db → services',
    file: 'apps/server/src/db/repos/probe.ts',
    refused: "import { JobsService } from '../../services/jobs';",
    because: 'db, storage, queue and i18n are the bottom layers',
    allowed: "import type { Db } from '../client';",
  },
  {
    what: 'jobs → http',
    file: 'apps/server/src/jobs/probe.ts',
    refused: "import { buildApp } from '../http/app';",
    because: 'job handlers run in workers',
    allowed: "import { runAnalysis } from '@cellcloud/engine';",
  },
  {
    what: 'packages → apps (workspace name)',
    file: 'packages/engine/src/probe.ts',
    refused: "import { loadConfig } from '@cellcloud/server/src/config';",
    because: 'packages are pure libraries and never depend on an app',
    allowed: "import { readDataset } from '@cellcloud/formats';",
  },
  {
    what: 'packages → apps (relative path)',
    file: 'packages/formats/src/probe.ts',
    refused: "import { loadConfig } from '../../../apps/server/src/config';",
    because: 'packages are pure libraries and never depend on an app',
    allowed: "import { LIMITS } from '@cellcloud/contracts/constants';",
  },
];

async function refusals(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries (eslint.config.js)', () => {
  it.each(probes)('refuses $what', async (p) => {
    const refused = await refusals(p.refused, p.file);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain(p.because);
  });

  it.each(probes)('allows the legitimate import beside: $what', async (p) => {
    expect(await refusals(p.allowed, p.file)).toEqual([]);
  });
});
