import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/**
 * A local S3-compatible server for tests: s3rver over HTTP on a random port. s3rver (3.7, the
 * latest) lacks the S3 ListParts call that resumable multipart uploads need (AWS S3, MinIO and
 * Ceph have it), so this adds ListParts to s3rver from s3rver's own on-disk multipart state.
 * Nothing of CellCloud's storage code is replaced.
 */
export interface TestS3 {
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3(bucket = 'cellcloud'): Promise<TestS3> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-s3-'));
  const s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  s3.middleware.unshift(async (ctx, next) => {
    const m = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    const uploadId = ctx.query.uploadId;
    if (ctx.method !== 'GET' || !m || typeof uploadId !== 'string' || !/^[0-9a-f]+$/.test(uploadId))
      return next();
    const partsDir = path.join(dir, m[1]!, '._S3rver_uploads', uploadId);
    const names = (await readdir(partsDir).catch(() => [] as string[]))
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .sort((a, b) => a - b);
    const parts = await Promise.all(
      names.map(async (n) => {
        const size = (await stat(path.join(partsDir, String(n)))).size;
        const md5 = (await readFile(path.join(partsDir, `${n}.md5`), 'utf8')).trim();
        return `<Part><PartNumber>${n}</PartNumber><ETag>"${md5}"</ETag><Size>${size}</Size></Part>`;
      }),
    );
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><Bucket>${m[1]}</Bucket><Key>${decodeURIComponent(m[2]!)}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  });
  const addr = await s3.run();
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${addr.port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
