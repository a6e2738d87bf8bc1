import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { assertKey, type Storage } from './storage';

export interface S3Options {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** S3-compatible object storage. Objects become visible only when their upload completes. */
export function s3Storage(o: S3Options): Storage {
  const client = new S3Client({
    region: o.region,
    endpoint: o.endpoint,
    forcePathStyle: o.forcePathStyle,
    credentials:
      o.accessKeyId && o.secretAccessKey
        ? { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey }
        : undefined,
  });
  const Bucket = o.bucket;

  async function listAll(prefix: string): Promise<{ key: string; size: number }[]> {
    const out: { key: string; size: number }[] = [];
    let token: string | undefined;
    do {
      const r = await client.send(
        new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const c of r.Contents ?? []) if (c.Key) out.push({ key: c.Key, size: c.Size ?? 0 });
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async function deleteKeys(keys: string[]) {
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      if (chunk.length)
        await client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects: chunk.map((Key) => ({ Key })) } }),
        );
    }
  }

  const prefixOf = (p: string) => (p.endsWith('/') ? p : `${p}/`);

  return {
    kind: 's3',
    async put(key, body) {
      await new Upload({
        client,
        params: { Bucket, Key: assertKey(key), Body: body instanceof Uint8Array ? Buffer.from(body) : body },
      }).done();
    },
    async get(key, range) {
      const r = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: assertKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return r.Body as Readable;
    },
    async getBytes(key) {
      const r = await client.send(new GetObjectCommand({ Bucket, Key: assertKey(key) }));
      return new Uint8Array(await r.Body!.transformToByteArray());
    },
    async stat(key) {
      try {
        const r = await client.send(new HeadObjectCommand({ Bucket, Key: assertKey(key) }));
        return { size: r.ContentLength ?? 0, mtime: r.LastModified ?? new Date(0) };
      } catch {
        return undefined;
      }
    },
    async delete(key) {
      if (key.endsWith('/'))
        await deleteKeys((await listAll(assertKey(key.slice(0, -1)) + '/')).map((x) => x.key));
      else await deleteKeys([assertKey(key)]);
    },
    async list(prefix) {
      return (await listAll(prefixOf(assertKey(prefix.replace(/\/$/, ''))))).map((x) => x.key).sort();
    },
    async movePrefix(fromPrefix, toPrefix) {
      const from = prefixOf(assertKey(fromPrefix.replace(/\/$/, '')));
      const to = prefixOf(assertKey(toPrefix.replace(/\/$/, '')));
      await deleteKeys((await listAll(to)).map((x) => x.key));
      const objs = await listAll(from);
      for (const obj of objs) {
        await client.send(
          new CopyObjectCommand({
            Bucket,
            Key: to + obj.key.slice(from.length),
            CopySource: `${Bucket}/${encodeURI(obj.key)}`,
          }),
        );
      }
      await deleteKeys(objs.map((x) => x.key));
    },
    async usage(prefix) {
      return (await listAll(prefixOf(assertKey(prefix.replace(/\/$/, ''))))).reduce((s, x) => s + x.size, 0);
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
  };
}
