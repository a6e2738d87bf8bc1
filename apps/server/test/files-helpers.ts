import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FILES_API, type UploadRow } from '@cellcloud/contracts';
import { sharedData } from '@cellcloud/testkit';
import { Upload } from 'tus-js-client';
import { expect } from 'vitest';
import { buildApp, type ZodApp } from '../src/http/app';
import { wireFiles } from '../src/services/files/wire';
import { wireJobsArea } from '../src/entry/compose';
import { JobQueue } from '../src/queue/job-queue';
import { signUp } from './support/accounts';
import type { TestServer } from './support/harness';

/** Helpers of the files tests: announce an upload, send its files with the real tus client, wait for parsing. */
export interface FileToSend {
  name: string;
  bytes: Uint8Array;
  role?: 'data' | 'metadata';
}

export const fileFrom = (
  p: string,
  name = path.basename(p),
  role: 'data' | 'metadata' = 'data',
): FileToSend => ({
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
    body: {
      sampleName,
      kind,
      files: files.map((f) => ({ name: f.name, size: f.bytes.length, role: f.role ?? 'data' })),
    },
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
export function tusSend(
  baseUrl: string,
  token: string,
  slot: string,
  file: FileToSend,
  o: TusOptions = {},
): Promise<string> {
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
export async function uploadSample(
  s: TestServer,
  token: string,
  sampleName: string,
  files: FileToSend[],
  kind?: 'matrix' | 'annotated' | 'celescope',
): Promise<UploadRow> {
  const row = await announce(s, token, sampleName, files, kind);
  for (const [i, f] of files.entries()) await tusSend(s.url!, token, row.files[i]!.slot, f);
  return row;
}

/** Polls the upload until it leaves uploading/parsing. */
export async function waitParsed(
  s: TestServer,
  token: string,
  id: string,
  lang: 'en-US' | 'zh-CN' = 'en-US',
  timeoutMs = 120_000,
): Promise<UploadRow> {
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

/** Starts a tus upload and aborts it (connection dropped) once `stopAfter` bytes were sent; resolves with its URL. */
export function tusSendUntil(
  baseUrl: string,
  token: string,
  slot: string,
  file: FileToSend,
  stopAfter: number,
  chunkSize: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let stopped = false;
    const up: Upload = new Upload(Buffer.from(file.bytes), {
      endpoint: `${baseUrl}${FILES_API.tus}`,
      headers: { 'access-token': token },
      metadata: { slot, filename: file.name },
      chunkSize,
      retryDelays: [],
      onProgress: (sent) => {
        if (!stopped && sent >= stopAfter) {
          stopped = true;
          void up.abort(false).then(() => resolve(up.url!));
        }
      },
      onSuccess: () => reject(new Error('upload finished before it could be interrupted')),
      onError: reject,
    });
    up.start();
  });
}

/** The server's offset of a tus upload (HEAD), as a client resuming would ask. */
export async function tusOffset(url: string, token: string): Promise<number> {
  const r = await fetch(url, {
    method: 'HEAD',
    headers: { 'access-token': token, 'tus-resumable': '1.0.0' },
  });
  if (r.status !== 200) throw new Error(`HEAD ${url}: ${r.status}`);
  return Number(r.headers.get('upload-offset'));
}

/** `TestServer.request` over real HTTP (for a server rebuilt after a restart). */
export function httpRequest(baseUrl: string): TestServer['request'] {
  return async (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers['access-token'] = opts.token;
    if (opts.lang) headers['x-lang'] = opts.lang;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const r = await fetch(`${baseUrl}${url}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const raw = await r.text();
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    return { status: r.status, body, headers: Object.fromEntries(r.headers), raw };
  };
}

/** Restart: close the HTTP server (and with it the queue), rewire jobs and files, and serve a new Fastify app on the same database and storage. */
export async function restart(s: TestServer, old: ZodApp): Promise<{ app: ZodApp; url: string }> {
  await old.close(); // also stops the job queue and worker, as a process exit would
  s.ctx.queue = new JobQueue(s.ctx.config, s.ctx.db); // a new process has a new queue
  await wireJobsArea(s.ctx);
  await wireFiles(s.ctx);
  const app = await buildApp(s.ctx, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const a = app.server.address();
  return { app, url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}` };
}

/** Upload pbmc3k, drop the connection after 2 MB of the matrix, restart, resume, parse. */
export async function interruptedUploadScenario(s: TestServer) {
  const { token } = await signUp(s);
  const files = [
    fileFrom(sharedData(`pbmc3k/10x/matrix.mtx.gz`)!),
    fileFrom(sharedData(`pbmc3k/10x/genes.tsv.gz`)!),
    fileFrom(sharedData(`pbmc3k/10x/barcodes.tsv.gz`)!),
  ];
  const row = await announce(s, token, 'resumed_pbmc', files);
  const size = files[0]!.bytes.length;
  const url = await tusSendUntil(s.url!, token, row.files[0]!.slot, files[0]!, 2 * 1024 * 1024, 512 * 1024);
  const before = await tusOffset(url, token);
  expect(before).toBeGreaterThan(0);
  expect(before).toBeLessThan(size);
  // The list shows how far it got (recorded when the server finishes the interrupted PATCH).
  const mid = async () =>
    (await s.request('GET', FILES_API.upload(row.id), { token })).body.data as UploadRow;
  await expect.poll(async () => (await mid()).files[0]!.received).toBe(before);
  expect((await mid()).state).toBe('uploading');
  expect((await mid()).progress).toBeGreaterThan(0);

  const next = await restart(s, s.app);
  s.app = next.app;
  s.url = next.url;
  s.request = httpRequest(next.url);
  const resumedUrl = url.replace(/^https?:\/\/[^/]+/, next.url);
  expect(await tusOffset(resumedUrl, token)).toBe(before);
  await tusSend(next.url, token, row.files[0]!.slot, files[0]!, {
    uploadUrl: resumedUrl,
    chunkSize: 1024 * 1024,
  });
  for (const i of [1, 2]) await tusSend(next.url, token, row.files[i]!.slot, files[i]!);
  const done = await waitParsed(s, token, row.id);
  expect(done.state).toBe('completed');
  expect(done.properties).toMatchObject({ cells: 2638, genes: 13714 });
  expect(done.fileSize).toBe(files.reduce((a, f) => a + f.bytes.length, 0));
  return { token, row };
}
