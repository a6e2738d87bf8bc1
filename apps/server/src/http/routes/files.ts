import {
  checkNameQuery,
  checkNameResult,
  createUploadBody,
  FILES_API,
  fileProperties,
  listUploadsQuery,
  renameUploadBody,
  storageUsage,
  uploadIdParams,
  uploadList,
  uploadRow,
} from '@cellcloud/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { quotaBytesOf, storageUsedBytes } from '../../services/files/quota';
import * as uploads from '../../services/files/uploads';
import type { ZodApp } from '../app';
import { userOf } from '../auth';
import { ok, okSchema } from '../envelope';
import { localeOf } from '../error-handler';
import { AppError } from '../errors';

const guarded = { auth: true, privilege: 'importData' } as const;
const tags = ['files'];
const security = [{ accessToken: [] }];

/** Uploaded files (docs/product/screens.md#routes-after-login /importdata, /my_analyzes "uploaded files"; docs/product/entities.md#upload-list columns and properties). */
export default async function filesRoutes(app: ZodApp, ctx: AppContext) {
  app.post(
    FILES_API.uploads,
    {
      config: guarded,
      schema: {
        tags,
        security,
        summary: 'Announce an upload (one sample, 1..n files)',
        body: createUploadBody,
        response: okSchema(uploadRow),
      },
    },
    async (req) => ok(await uploads.createUpload(ctx, userOf(req).id, req.body, localeOf(req))),
  );

  app.get(
    FILES_API.uploads,
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        summary: 'List my uploads (search, sort, paging)',
        querystring: listUploadsQuery,
        response: okSchema(uploadList),
      },
    },
    async (req) => ok(await uploads.listUploads(ctx, userOf(req).id, req.query, localeOf(req))),
  );

  app.get(
    '/api/files/uploads/:id',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        summary: 'One upload',
        params: uploadIdParams,
        response: okSchema(uploadRow),
      },
    },
    async (req) => ok(await uploads.getUpload(ctx, userOf(req).id, req.params.id, localeOf(req))),
  );

  app.get(
    '/api/files/uploads/:id/properties',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        summary: 'File properties of a completed upload',
        params: uploadIdParams,
        response: okSchema(fileProperties),
      },
    },
    async (req) => {
      const row = await uploads.getUpload(ctx, userOf(req).id, req.params.id, localeOf(req));
      if (!row.properties) throw new AppError('CONFLICT', { state: row.state }, 'files.properties.notReady');
      return ok(row.properties);
    },
  );

  app.put(
    '/api/files/uploads/:id',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        summary: 'Rename (sample name)',
        params: uploadIdParams,
        body: renameUploadBody,
        response: okSchema(uploadRow),
      },
    },
    async (req) =>
      ok(await uploads.renameUpload(ctx, userOf(req).id, req.params.id, req.body.sampleName, localeOf(req))),
  );

  app.delete(
    '/api/files/uploads/:id',
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        summary: 'Delete an upload and its data (frees quota)',
        params: uploadIdParams,
        response: okSchema(z.null()),
      },
    },
    async (req) => {
      await uploads.deleteUpload(ctx, userOf(req).id, req.params.id);
      return ok(null);
    },
  );

  app.post(
    '/api/files/uploads/:id/retry',
    {
      config: guarded,
      schema: {
        tags,
        security,
        summary: 'Parse a failed upload again',
        params: uploadIdParams,
        response: okSchema(uploadRow),
      },
    },
    async (req) => ok(await uploads.retryUpload(ctx, userOf(req).id, req.params.id, localeOf(req))),
  );

  app.get(
    FILES_API.checkName,
    {
      config: { auth: true },
      schema: {
        tags,
        security,
        summary: 'Is this sample name free?',
        querystring: checkNameQuery,
        response: okSchema(checkNameResult),
      },
    },
    async (req) => {
      const available = await uploads.isSampleNameAvailable(ctx, userOf(req).id, req.query.name);
      return ok(available ? { available } : { available, messageKey: 'NAME_EXISTS' });
    },
  );

  app.get(
    FILES_API.usage,
    {
      config: { auth: true },
      schema: { tags, security, summary: 'My storage use and quota', response: okSchema(storageUsage) },
    },
    async (req) => {
      const id = userOf(req).id;
      return ok({ usedBytes: await storageUsedBytes(ctx, id), quotaBytes: await quotaBytesOf(ctx, id) });
    },
  );
}
