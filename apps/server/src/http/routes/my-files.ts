import { z } from 'zod';
import { MY_FILES_API, projectGroupView, resultFileView } from '@cellcloud/contracts/my-files';
import type { AppContext } from '../../context';
import { listProjectFiles, listResultFiles } from '../../services/my-files/list';
import type { ZodApp } from '../app';
import { userOf } from '../auth';
import { ok, okSchema } from '../envelope';

const tags = ['files'];
const security = [{ accessToken: [] }];

/** My Analyses "Result files" and "Project files" (contracts/my-files.ts). */
export default async function myFilesRoutes(app: ZodApp, ctx: AppContext) {
  app.get(
    MY_FILES_API.results,
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        summary: 'Result files of my analyses and tasks',
        response: okSchema(z.array(resultFileView)),
      },
    },
    async (req) => ok(await listResultFiles(ctx, userOf(req).id)),
  );
  app.get(
    MY_FILES_API.projects,
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        summary: 'My CeleScope imports grouped by project',
        response: okSchema(z.array(projectGroupView)),
      },
    },
    async (req) => ok(await listProjectFiles(ctx, userOf(req).id)),
  );
}
