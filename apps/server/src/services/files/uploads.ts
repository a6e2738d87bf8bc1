import { abortIngest } from './ingest-abort';
import {
  createUploadBody,
  listUploadsQuery,
  type Locale,
  type UploadList,
  type UploadRow,
} from '@cellcloud/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import * as repo from '../../db/repos/uploads';
import { AppError } from '../../errors';
import { datasetPrefix, rawFileKey, rawPrefix } from '../../storage/tus-store';
import { filesDeps } from './deps';
import { checkFileName } from './file-names';
import { assertStorageAvailable } from './quota';
import { toUploadRow } from './upload-row';

/** Use cases of the uploaded-files list and the Import Data page. Every lookup is scoped to the user. */
export async function createUpload(
  ctx: AppContext,
  userId: string,
  input: z.input<typeof createUploadBody>,
  locale: Locale,
): Promise<UploadRow> {
  const body = createUploadBody.parse(input);
  for (const f of body.files) checkFileName(f.name);
  if (!body.files.some((f) => f.role === 'data'))
    throw new AppError('VALIDATION_FAILED', {}, 'files.failed.noData');
  await assertStorageAvailable(
    ctx,
    userId,
    body.files.reduce((s, f) => s + f.size, 0),
  );
  const id = await ctx.db.tx((q) =>
    repo.insertUpload(q, {
      userId,
      sampleName: body.sampleName,
      kind: body.kind,
      formatHint: body.formatHint,
      files: body.files,
    }),
  );
  if (!id) throw new AppError('NAME_EXISTS');
  return getUpload(ctx, userId, id, locale);
}

export async function getUploadRecord(
  ctx: AppContext,
  userId: string,
  id: string,
): Promise<repo.UploadRecord> {
  const r = await repo.findUpload(ctx.db, id, userId);
  if (!r) throw new AppError('NOT_FOUND');
  return r;
}

export async function getUpload(
  ctx: AppContext,
  userId: string,
  id: string,
  locale: Locale,
): Promise<UploadRow> {
  return toUploadRow(await getUploadRecord(ctx, userId, id), locale);
}

export async function listUploads(
  ctx: AppContext,
  userId: string,
  query: z.input<typeof listUploadsQuery>,
  locale: Locale,
): Promise<UploadList> {
  const q = listUploadsQuery.parse(query);
  const { total, rows } = await repo.listUploads(ctx.db, userId, q);
  return { total, rows: rows.map((r) => toUploadRow(r, locale)) };
}

export async function renameUpload(
  ctx: AppContext,
  userId: string,
  id: string,
  sampleName: string,
  locale: Locale,
): Promise<UploadRow> {
  await getUploadRecord(ctx, userId, id);
  if (!(await repo.renameUpload(ctx.db, id, userId, sampleName))) throw new AppError('NAME_EXISTS');
  return getUpload(ctx, userId, id, locale);
}

/** Deletes the upload, its originals and its canonical dataset (frees quota). */
export async function deleteUpload(ctx: AppContext, userId: string, id: string): Promise<void> {
  const upload = await getUploadRecord(ctx, userId, id);
  await repo.deleteUpload(ctx.db, id, userId);
  abortIngest(id); // a running parse of it stops now (issue 12)
  // Unfinished tus uploads: let the store clean up (on S3 this aborts the multipart upload).
  const { tus } = filesDeps(ctx);
  for (const f of upload.files.filter((x) => !x.complete))
    await tus.datastore.remove(rawFileKey(id, f.idx)).catch(() => {});
  await ctx.storage.delete(rawPrefix(id));
  await ctx.storage.delete(datasetPrefix(id));
}

/** Failed (retryable) → parsing again; the originals were kept. */
export async function retryUpload(
  ctx: AppContext,
  userId: string,
  id: string,
  locale: Locale,
): Promise<UploadRow> {
  await getUploadRecord(ctx, userId, id);
  if (!(await repo.restartParsing(ctx.db, id, userId)))
    throw new AppError('CONFLICT', {}, 'files.retry.notAllowed');
  await filesDeps(ctx).enqueueIngest(id);
  return getUpload(ctx, userId, id, locale);
}

export async function isSampleNameAvailable(ctx: AppContext, userId: string, name: string): Promise<boolean> {
  return !(await repo.sampleNameTaken(ctx.db, userId, name.trim()));
}
