import { gunzipChunks, isGzipMagic } from '@cellcloud/formats/gzip';

/** The bytes of an uploaded file, gunzipped when they start with the gzip magic. */
export async function gunzipBytes(bytes: Uint8Array, file: string): Promise<Uint8Array> {
  if (!isGzipMagic(bytes)) return bytes;
  const parts: Uint8Array[] = [];
  async function* one() {
    yield bytes;
  }
  for await (const c of gunzipChunks(one(), file)) parts.push(c);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
