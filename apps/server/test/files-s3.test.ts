import { sharedData } from '@cellcloud/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileFrom, interruptedUploadScenario, uploadSample, waitParsed } from './files-helpers';
import { startS3, type TestS3 } from './files-s3rver';
import { signUp } from './support/accounts';
import { createTestServer, type TestServer } from './support/harness';

/** The same upload → parse path with S3-compatible storage (s3rver speaking S3 over HTTP). */
const dir = 'scanpy_bundled/10x_v3_small';
const have =
  sharedData(`${dir}/matrix.mtx.gz`) !== undefined && sharedData('pbmc3k/10x/matrix.mtx.gz') !== undefined;

describe.skipIf(!have)('files on S3 storage', () => {
  let s3: TestS3;
  let env: Record<string, string>;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    s3 = await startS3();
    env = s3.env;
  });
  afterAll(async () => {
    for (const s of servers) {
      await s.app.close();
      await s.close();
    }
    await s3?.close();
  });

  it('uploads a 10x triplet into the bucket and parses it to Completed', async () => {
    const s = await createTestServer(env);
    servers.push(s);
    expect(s.ctx.storage.kind).toBe('s3');
    await s.listen();
    const { token } = await signUp(s);
    const files = ['matrix.mtx.gz', 'features.tsv.gz', 'barcodes.tsv.gz'].map((f) =>
      fileFrom(sharedData(`${dir}/${f}`)!),
    );
    const row = await uploadSample(s, token, 'v3_on_s3', files);
    const done = await waitParsed(s, token, row.id);
    const stored = await s.ctx.storage.getBytes(`raw/${row.id}/0`);
    expect(Buffer.from(stored).subarray(0, 16).toString('hex')).toBe(
      Buffer.from(files[0]!.bytes).subarray(0, 16).toString('hex'),
    );
    expect(Buffer.compare(Buffer.from(stored), Buffer.from(files[0]!.bytes))).toBe(0);
    const head = await s.ctx.storage.get(`raw/${row.id}/0`, { start: 0, end: 15 });
    const chunks: Buffer[] = [];
    for await (const c of head) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString('hex')).toBe(
      Buffer.from(files[0]!.bytes).subarray(0, 16).toString('hex'),
    );
    expect(done.failure).toBeNull();
    expect(done.properties).toMatchObject({ cells: 1107, genes: 507 });
    const keys = await s.ctx.storage.list(`raw/${row.id}`);
    expect(keys).toContain(`raw/${row.id}/0`);
    expect((await s.ctx.storage.stat(`raw/${row.id}/0`))?.size).toBe(files[0]!.bytes.length);
    expect(await s.ctx.storage.list(`datasets/${row.id}`)).toEqual([
      `datasets/${row.id}/counts.h5ad`,
      `datasets/${row.id}/manifest.json`,
    ]);
  });

  it('an interrupted upload resumes on a new server instance', async () => {
    const s = await createTestServer(env);
    servers.push(s);
    await s.listen();
    await interruptedUploadScenario(s);
  });
});
