import type { AppContext } from '../../context';
import { findUpload } from '../../db/repos/uploads';
import { AppError } from '../../errors';
import { parseTusSlot } from '../../storage/tus-store';
import { checkFileName } from './file-names';

/**
 * Decodes a tus Upload-Metadata header ("key base64,key2 base64") as strictly as @tus/server
 * does (no spaces around pairs, base64 values, no repeated key), so the slot checked here is the
 * slot the tus server names the file after. Malformed → 400.
 */
export function parseTusMetadata(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const pair of header.split(',')) {
    const tokens = pair.split(' ');
    const [key, value] = tokens;
    const keyOk = !!key && /^[\x21-\x7e]+$/.test(key) && !key.includes(',');
    const valueOk = value === undefined || (value.length % 4 === 0 && /^[\d+/A-Za-z]*={0,2}$/.test(value));
    if (tokens.length > 2 || !keyOk || !valueOk || Object.hasOwn(out, key!))
      throw new AppError('VALIDATION_FAILED', { detail: 'Upload-Metadata' });
    out[key!] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return out;
}

/**
 * Checks a tus request before the tus server sees it: the slot must belong to one of the user's
 * uploads (404 otherwise — never leaking another user's ids), a creation must name the announced
 * file with the announced size, and the upload must still accept files.
 */
export async function guardTusRequest(
  ctx: AppContext,
  userId: string,
  req: { method: string; slot?: string; headers: Record<string, string | string[] | undefined> },
): Promise<void> {
  if (req.method === 'OPTIONS') return;
  // `slot` comes from tusSlotFromUrl: '' = the creation URL, undefined = a URL the tus server
  // could read differently (query string, extra segment) → refused.
  if (req.slot === undefined) throw new AppError('NOT_FOUND');
  if ((req.method === 'POST') !== (req.slot === '')) throw new AppError('NOT_FOUND');
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  let slotText = req.slot;
  let meta: Record<string, string> = {};
  if (req.method === 'POST') {
    meta = parseTusMetadata(header('upload-metadata'));
    if (meta.filename !== undefined) checkFileName(meta.filename);
    slotText = meta.slot;
  }
  const slot = parseTusSlot(slotText ?? '');
  if (!slot) throw new AppError('NOT_FOUND');
  const upload = await findUpload(ctx.db, slot.uploadId, userId);
  const file = upload?.files.find((f) => f.idx === slot.index);
  if (!upload || !file) throw new AppError('NOT_FOUND');
  if (req.method === 'HEAD' || req.method === 'GET') return;
  if (upload.state !== 'uploading')
    throw new AppError('CONFLICT', { state: upload.state }, 'files.upload.closed');
  if (req.method !== 'POST') return;
  if (meta.filename !== undefined && meta.filename !== file.name)
    throw new AppError('VALIDATION_FAILED', { name: meta.filename }, 'files.fileName.notAnnounced');
  const length = Number(header('upload-length'));
  if (!Number.isFinite(length) || length !== file.size) {
    throw new AppError(
      'VALIDATION_FAILED',
      { name: file.name, actual: header('upload-length') ?? '?', expected: file.size },
      'files.fileSize.mismatch',
    );
  }
}
