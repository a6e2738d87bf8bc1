import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FILES_API, type UploadRow } from '@cellcloud/contracts';
import { Upload } from 'tus-js-client';
import type { TestServer } from './support/harness';

/** Helpers of the files tests: announce an upload, send its files with the real tus client, wait for parsing. */
export interface FileToSend {
  name: string;
  bytes: Uint8Array;
  role?: 'data' | 'metadata';
}

export const fileFrom = (p: string, name = path.basename(p), role: 'data' | 'metadata' = 'data'): FileToSend => ({
  name,
  bytes: new Uint8Array(readFileSync(p)),
  role,
});

export async function announce(
  s: TestServer,
  token: string,
  sampleName: string,
  files: FileToSend[],
  kind: 'matrix' | 'annotated' | 'celescope' = 'matrix',
): Promise<UploadRow> {
  const r = await s.request('POST', FILES_API.uploads, {
    token,
    body: { sampleName, kind, files: files.map((f) => ({ name: f.name, size: f.bytes.length, role: f.role ?? 'data' })) },
  });
  if (r.status !== 200) throw new Error(`announce ${sampleName}: ${r.status} ${r.body?.msg}`);
  return r.body.data as UploadRow;
}

export interface TusOptions {
  chunkSize?: number;
  uploadUrl?: string;
  onProgress?: (sent: number, total: number, upload: Upload) => void;
}

/** Sends one file with tus-js-client (the browser's client, here on Node). Resolves with its URL. */
export function tusSend(baseUrl: string, token: string, slot: string, file: FileToSend, o: TusOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const up: Upload = new Upload(Buffer.from(file.bytes), {
      endpoint: `${baseUrl}${FILES_API.tus}`,
      uploadUrl: o.uploadUrl,
      headers: { 'access-token': token },
      metadata: { slot, filename: file.name },
      chunkSize: o.chunkSize ?? 4 * 1024 * 1024,
      retryDelays: [0, 200, 500],
      onProgress: (sent, total) => o.onProgress?.(sent, total, up),
      onSuccess: () => resolve(up.url!),
      onError: reject,
    });
    up.start();
  });
}

/** Announces a sample and uploads every file of it. */
export async function uploadSample(s: TestServer, token: string, sampleName: string, files: FileToSend[], kind?: 'matrix' | 'annotated' | 'celescope'): Promise<UploadRow> {
  const row = await announce(s, token, sampleName, files, kind);
  for (const [i, f] of files.entries()) await tusSend(s.url!, token, row.files[i]!.slot, f);
  return row;
}

/** Polls the upload until it leaves uploading/parsing. */
export async function waitParsed(s: TestServer, token: string, id: string, lang: 'en-US' | 'zh-CN' = 'en-US', timeoutMs = 120_000): Promise<UploadRow> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await s.request('GET', FILES_API.upload(id), { token, lang });
    if (r.status !== 200) throw new Error(`get upload: ${r.status} ${r.body?.msg}`);
    const row = r.body.data as UploadRow;
    if (row.state === 'completed' || row.state === 'failed') return row;
    if (Date.now() > end) throw new Error(`upload ${id} still ${row.state} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 100));
  }
}
