import { z } from 'zod';
import { datasetIdParams, subsetView } from '@cellcloud/contracts/explore';
import {
  createShareBody,
  datasetRoleView,
  historyEntryView,
  levelParams,
  notesBody,
  restoreBody,
  restoreParams,
  sharedDatasetView,
  shareIdParams,
  shareView,
  updateShareBody,
} from '@cellcloud/contracts/sharing';
import type { AppContext } from '../../context';
import { levelHistory, restoreVersion, setLabelNote } from '../../services/explore/annotation-curation';
import {
  createShare,
  deleteShare,
  listShares,
  myRole,
  sharedWithMe,
  updateShare,
} from '../../services/sharing/shares';
import type { ZodApp } from '../app';
import { userOf } from '../auth';
import { ok, okSchema } from '../envelope';

const tags = ['sharing'];
const base = '/api/user_datasets/:id';
const config = { auth: true };

/**
 * Sharing an analysis and attributed annotation (issue 35, docs/product/sharing.md): the owner's
 * share calls, the analyses shared with the caller, the caller's role, and a saved level's
 * history, restore and per-label notes.
 */
export default async function sharingRoutes(app: ZodApp, ctx: AppContext) {
  app.post(
    `${base}/shares`,
    {
      config,
      schema: {
        tags,
        summary:
          'Share the analysis with another user (user name or e-mail) as viewer or editor (owner only)',
        params: datasetIdParams,
        body: createShareBody,
        response: okSchema(shareView),
      },
    },
    async (req) => ok(await createShare(ctx, userOf(req), req.params.id, req.body)),
  );
  app.get(
    `${base}/shares`,
    {
      config,
      schema: {
        tags,
        summary: 'Users the analysis is shared with and their roles (owner only)',
        params: datasetIdParams,
        response: okSchema(z.array(shareView)),
      },
    },
    async (req) => ok(await listShares(ctx, userOf(req), req.params.id)),
  );
  app.patch(
    `${base}/shares/:shareId`,
    {
      config,
      schema: {
        tags,
        summary: 'Change the role of a share (owner only)',
        params: shareIdParams,
        body: updateShareBody,
        response: okSchema(shareView),
      },
    },
    async (req) => ok(await updateShare(ctx, userOf(req), req.params.id, req.params.shareId, req.body.role)),
  );
  app.delete(
    `${base}/shares/:shareId`,
    {
      config,
      schema: {
        tags,
        summary: 'Revoke a share: the user’s next request answers 404 (owner only)',
        params: shareIdParams,
        response: okSchema(z.null()),
      },
    },
    async (req) => {
      await deleteShare(ctx, userOf(req), req.params.id, req.params.shareId);
      return ok(null);
    },
  );
  app.get(
    '/api/shared_datasets',
    {
      config,
      schema: {
        tags,
        summary:
          'Analyses other users shared with the caller, with their owners (My Analyses → Shared with me)',
        response: okSchema(z.array(sharedDatasetView)),
      },
    },
    async (req) => ok(await sharedWithMe(ctx, userOf(req))),
  );
  app.get(
    `${base}/role`,
    {
      config,
      schema: {
        tags,
        summary: 'The caller’s role on the analysis: owner, editor or viewer',
        params: datasetIdParams,
        response: okSchema(datasetRoleView),
      },
    },
    async (req) => ok({ role: await myRole(ctx, userOf(req), req.params.id) }),
  );
  app.get(
    `${base}/annotation_levels/:level/history`,
    {
      config,
      schema: {
        tags,
        summary:
          'Changes of a saved level (`subset:<id>`), newest first: author, time, cells affected, before → after labels',
        params: levelParams,
        response: okSchema(z.array(historyEntryView)),
      },
    },
    async (req) => ok(await levelHistory(ctx, userOf(req), req.params.id, req.params.level)),
  );
  app.post(
    `${base}/annotation_levels/:level/history/:version/restore`,
    {
      config,
      schema: {
        tags,
        summary: 'Restore an earlier version of a saved level (recorded as a new version; 409 when stale)',
        params: restoreParams,
        body: restoreBody,
        response: okSchema(subsetView),
      },
    },
    async (req) =>
      ok(
        await restoreVersion(
          ctx,
          userOf(req),
          req.params.id,
          req.params.level,
          req.params.version,
          req.body.expectedVersion,
        ),
      ),
  );
  app.post(
    `${base}/observation_label_note`,
    {
      config,
      schema: {
        tags,
        summary: 'A label’s note and the marker genes that justified it (shown to collaborators)',
        params: datasetIdParams,
        body: notesBody,
        response: okSchema(subsetView),
      },
    },
    async (req) => ok(await setLabelNote(ctx, userOf(req), req.params.id, req.body)),
  );
}
