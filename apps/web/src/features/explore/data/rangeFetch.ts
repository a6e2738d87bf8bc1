/**
 * Byte access to a result's artifacts over HTTP with Range requests, cached in the Cache API so a
 * page reload does not refetch. Runs inside the artifact Web Worker (the only binary fetches of the
 * app; JSON API calls stay in src/api). Partial (206) responses cannot be stored as such, so each
 * range is stored as a full response under a synthetic `?cellcloud-range=` key.
 */
const CACHE_NAME = 'cellcloud-artifacts-v1';

export class ArtifactHttpError extends Error {
  override name = 'ArtifactHttpError';
  constructor(
    readonly status: number,
    readonly url: string,
  ) {
    super(`artifact request ${url} failed with HTTP ${status}`);
  }
}

export interface ByteSource {
  get(path: string, range?: { start: number; length: number }): Promise<ArrayBuffer>;
}

async function openCache(): Promise<Cache | null> {
  try {
    return typeof caches === 'undefined' ? null : await caches.open(CACHE_NAME);
  } catch {
    return null; // opaque origins / private mode: fall back to memory only
  }
}

export function createHttpByteSource(baseUrl: string, token: string | null): ByteSource {
  const cachePromise = openCache();
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return {
    async get(path, range) {
      const url = new URL(path, new URL(base, self.location.href)).href;
      if (range && range.length === 0) return new ArrayBuffer(0);
      // Cache API matching ignores URL fragments, so the range goes into the query of the key
      const key = range ? `${url}${url.includes('?') ? '&' : '?'}cellcloud-range=${range.start}-${range.length}` : url;
      const cache = await cachePromise;
      const hit = cache ? await cache.match(key) : undefined;
      if (hit) return hit.arrayBuffer();
      const headers: Record<string, string> = {};
      if (token) headers['access-token'] = token;
      if (range) headers.Range = `bytes=${range.start}-${range.start + range.length - 1}`;
      const res = await fetch(url, { headers });
      if (!res.ok) throw new ArtifactHttpError(res.status, url);
      let body = await res.arrayBuffer();
      if (range && res.status === 200) {
        // server ignored Range: cut the slice ourselves (correct, only slower)
        body = body.slice(range.start, range.start + range.length);
      }
      if (cache) void cache.put(key, new Response(body.slice(0))).catch(() => undefined);
      return body;
    },
  };
}
