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
  /**
   * A whole file, handed to `onChunk` in order as it arrives (once, whole, from the cache), so the
   * caller decodes while the rest downloads; resolves once all of it has been handed over.
   */
  stream(path: string, onChunk: (bytes: Uint8Array) => void): Promise<void>;
  /** Always from the network (manifest.json): never cached. */
  fresh(path: string): Promise<ArrayBuffer>;
  /** Cached entries are keyed by this version (a fingerprint of the manifest), so new results never reuse old bytes. */
  setVersion(version: string): void;
}

/** FNV-1a of a string, hex: a cheap fingerprint of manifest.json. */
export function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16);
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
  let version = '0';
  const headers = (extra: Record<string, string> = {}) => ({ ...(token ? { 'access-token': token } : {}), ...extra });
  const resolve = (path: string) => new URL(path, new URL(base, self.location.href)).href;
  // Cache writes wait until no read is in flight: a cache runs its operations in order, so an
  // 11 MB put would hold up the next read's lookup (the colour column after the positions)
  let reading = 0;
  const writes: Array<() => void> = [];
  const flush = () => {
    if (reading === 0) for (const write of writes.splice(0)) write();
  };
  /** get and stream: from the cache, else fetched (cached once no read is in flight); `onChunk` sees the bytes in order. */
  const read = async (
    path: string,
    range?: { start: number; length: number },
    onChunk?: (bytes: Uint8Array) => void,
  ): Promise<ArrayBuffer> => {
    const url = resolve(path);
    if (range && range.length === 0) return new ArrayBuffer(0);
    reading += 1;
    try {
      return await fetchOrCached(url, range, onChunk);
    } finally {
      reading -= 1;
      // after the reads this one's completion lets start (e.g. the ones waiting for the positions)
      setTimeout(flush, 0);
    }
  };
  const fetchOrCached = async (
    url: string,
    range?: { start: number; length: number },
    onChunk?: (bytes: Uint8Array) => void,
  ): Promise<ArrayBuffer> => {
    // Cache API matching ignores URL fragments, so version and range go into the query of the key
    const key = `${url}${url.includes('?') ? '&' : '?'}cellcloud-v=${version}${range ? `&cellcloud-range=${range.start}-${range.length}` : ''}`;
    const cache = await cachePromise;
    const hit = cache ? await cache.match(key) : undefined;
    if (hit) {
      const body = await hit.arrayBuffer();
      onChunk?.(new Uint8Array(body));
      return body;
    }
    const res = await fetch(url, { headers: headers(range ? { Range: `bytes=${range.start}-${range.start + range.length - 1}` } : {}) });
    if (!res.ok) throw new ArtifactHttpError(res.status, url);
    let body: ArrayBuffer;
    if (onChunk && res.body) body = await readChunks(res.body, onChunk);
    else {
      body = await res.arrayBuffer();
      if (range && res.status === 200) {
        // server ignored Range: cut the slice ourselves (correct, only slower)
        body = body.slice(range.start, range.start + range.length);
      }
      onChunk?.(new Uint8Array(body));
    }
    if (cache) {
      const copy = body.slice(0);
      writes.push(() => void cache.put(key, new Response(copy)).catch(() => undefined));
    }
    return body;
  };
  return {
    setVersion(v) {
      version = v;
    },
    async fresh(path) {
      const url = resolve(path);
      const res = await fetch(url, { headers: headers(), cache: 'no-store' });
      if (!res.ok) throw new ArtifactHttpError(res.status, url);
      return res.arrayBuffer();
    },
    get: (path, range) => read(path, range),
    stream: async (path, onChunk) => void (await read(path, undefined, onChunk)),
  };
}

/** Reads a response body chunk by chunk (each handed to `onChunk` as it arrives) into one buffer. */
async function readChunks(body: ReadableStream<Uint8Array>, onChunk: (bytes: Uint8Array) => void): Promise<ArrayBuffer> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onChunk(value);
      chunks.push(value);
      total += value.byteLength;
    }
  } catch (e) {
    void reader.cancel().catch(() => undefined);
    throw e;
  }
  if (chunks.length === 1 && chunks[0]!.byteLength === chunks[0]!.buffer.byteLength) return chunks[0]!.buffer as ArrayBuffer;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out.buffer;
}
