import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore } from '@tus/server';
import type { Config } from '../config';

/**
 * The tus data store on the same storage as everything else: a FileStore in the local storage
 * directory, or an S3Store in the configured bucket. Upload ids are storage keys
 * (`raw/<uploadId>/<fileIndex>`), so a finished upload is already in place — no copy of
 * multi-GB files. Offsets live in the store (`<key>.json` / `<key>.info`), so uploads resume
 * after a dropped connection or a server restart.
 */
export function openTusStore(config: Config): DataStore {
  if (config.s3) {
    return new S3Store({
      partSize: 8 * 1024 * 1024,
      s3ClientConfig: {
        bucket: config.s3.bucket,
        region: config.s3.region,
        endpoint: config.s3.endpoint,
        forcePathStyle: config.s3.forcePathStyle,
        // Plain payloads (no aws-chunked checksum framing): S3-compatible servers other than AWS
        // do not all decode it, and tus parts are verified by their offsets anyway.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        credentials:
          config.s3.accessKeyId && config.s3.secretAccessKey
            ? { accessKeyId: config.s3.accessKeyId, secretAccessKey: config.s3.secretAccessKey }
            : undefined,
      },
    });
  }
  return new FileStore({ directory: path.join(config.dataDir, 'storage') });
}

/** Storage key of file `index` of an upload (also its tus id). */
export { rawFileKey, rawPrefix, datasetPrefix } from './keys';

/** Storage prefix of everything kept for an upload's originals. */

/** Storage prefix of the canonical dataset converted from an upload. */

/** The URL form of a tus id: `raw/<uploadId>/<i>` ⇄ `<uploadId>.<i>` (no slashes in URLs). */
export const tusSlotOf = (uploadId: string, index: number) => `${uploadId}.${index}`;

export function parseTusSlot(slot: string): { uploadId: string; index: number } | undefined {
  const m = /^([0-9a-f-]{36})\.(\d{1,3})$/.exec(slot);
  return m ? { uploadId: m[1]!, index: Number(m[2]) } : undefined;
}

/**
 * The tus slot a request URL addresses, parsed strictly: the path must be exactly
 * `<tusPath>/<slot>` with no query string, fragment, extra segment or encoded separator. The
 * route's ownership guard and @tus/server's id lookup both use this one parse, so the id that is
 * checked is the id that is acted on. `''` for the collection URL itself (creation).
 */
export function tusSlotFromUrl(url: string, tusPath: string): string | undefined {
  if (url.includes('?') || url.includes('#')) return undefined;
  let pathname: string;
  try {
    pathname = /^[a-z]+:\/\//i.test(url) ? new URL(url).pathname : url;
  } catch {
    return undefined;
  }
  if (pathname === tusPath || pathname === `${tusPath}/`) return '';
  if (!pathname.startsWith(`${tusPath}/`)) return undefined;
  const rest = pathname.slice(tusPath.length + 1);
  return parseTusSlot(rest) ? rest : undefined;
}

export function parseRawKey(key: string): { uploadId: string; index: number } | undefined {
  const m = /^raw\/([0-9a-f-]{36})\/(\d{1,3})$/.exec(key);
  return m ? { uploadId: m[1]!, index: Number(m[2]) } : undefined;
}
