import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  checkNameResult,
  FILES_API,
  storageUsage,
  uploadList,
  uploadRow,
  type CreateUploadBody,
  listUploadsQuery,
  type UploadRow,
} from '@cellcloud/contracts/files';
import { Upload } from 'tus-js-client';
import { z } from 'zod';
import { getSession } from './session';
import { request } from './client';
import { currentLocale } from '../i18n';

/** Statuses the files screens show inline (name taken, invalid, storage full, gone). */
export const FILES_STATUSES = [400, 404, 409, 507];

export const filesKeys = {
  all: ['files'] as const,
  list: (q: UploadsQuery) => ['files', 'list', q] as const,
  usage: ['files', 'usage'] as const,
};

/** The list query as the page holds it (all fields set). */
export type UploadsQuery = z.output<typeof listUploadsQuery>;

const busy = (rows: UploadRow[]) => rows.some((r) => r.state === 'uploading' || r.state === 'parsing');

/** My uploads; refreshes every 2 s while one is uploading or parsing (progress of long tasks). */
export function useUploads(q: UploadsQuery) {
  return useQuery({
    queryKey: filesKeys.list(q),
    queryFn: () => request(FILES_API.uploads, { query: { ...q }, schema: uploadList }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data && busy(query.state.data.rows) ? 2000 : false),
  });
}

export function useStorageUsage() {
  return useQuery({
    queryKey: filesKeys.usage,
    queryFn: () => request(FILES_API.usage, { schema: storageUsage }),
  });
}

/** Is the sample name free for me? (live check on the import form) */
export function checkSampleName(name: string) {
  return request(FILES_API.checkName, { query: { name }, schema: checkNameResult, handle: FILES_STATUSES });
}

function useFilesMutation<A>(fn: (a: A) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: filesKeys.all }) });
}

export const useRenameUpload = () =>
  useFilesMutation(({ id, sampleName }: { id: string; sampleName: string }) =>
    request(FILES_API.upload(id), {
      method: 'PUT',
      body: { sampleName },
      schema: uploadRow,
      handle: FILES_STATUSES,
    }),
  );

export const useDeleteUpload = () =>
  useFilesMutation((id: string) =>
    request(FILES_API.upload(id), { method: 'DELETE', schema: z.null(), handle: FILES_STATUSES }),
  );

export const useRetryUpload = () =>
  useFilesMutation((id: string) =>
    request(FILES_API.retry(id), { method: 'POST', schema: uploadRow, handle: FILES_STATUSES }),
  );

export function createUpload(body: CreateUploadBody) {
  return request(FILES_API.uploads, { method: 'POST', body, schema: uploadRow, handle: FILES_STATUSES });
}

/**
 * Sends one file with tus (8 MB chunks, retried after a dropped connection; with `resume`,
 * continued from the server's offset). Resolves when the server has every byte.
 */
export function sendFile(
  slot: string,
  file: File,
  onProgress: (sent: number, total: number) => void,
  opts: { resume?: boolean; signal?: AbortSignal } = {},
): Promise<void> {
  sending.add(slot);
  return new Promise<void>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: FILES_API.tus,
      // Resuming: the slot's URL first, so tus asks the server for its offset and continues from
      // there (a closed tab, a server restart); a file the server never saw is created instead.
      uploadUrl: opts.resume ? `${FILES_API.tus}/${slot}` : undefined,
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
      storeFingerprintForResuming: false,
      metadata: { slot, filename: file.name },
      onBeforeRequest: (req) => {
        const token = getSession()?.token;
        if (token) req.setHeader('access-token', token);
        req.setHeader('x-lang', currentLocale());
      },
      onProgress,
      onSuccess: () => resolve(),
      onError: (e) => reject(new Error(tusMessage(e))),
    });
    opts.signal?.addEventListener('abort', () => void upload.abort());
    upload.start();
  }).finally(() => sending.delete(slot));
}

const sending = new Set<string>();

/** True while this page is sending the file of that slot (no "resume" offered then). */
export function isSending(slot: string): boolean {
  return sending.has(slot);
}

/** The server's translated message of a refused tus request, else the client's text. */
function tusMessage(e: Error): string {
  const body = (e as Error & { originalResponse?: { getBody(): string } | null }).originalResponse?.getBody();
  try {
    const msg = body ? (JSON.parse(body) as { msg?: unknown }).msg : undefined;
    if (typeof msg === 'string') return msg;
  } catch {
    /* not JSON */
  }
  return e.message;
}
