import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';

/**
 * Tiny static server for the benchmark and the explorer e2e test: serves `mounts` (URL prefix →
 * directory) with HTTP Range support (206 + Content-Range), like the artifacts route will.
 */
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

export async function startStaticServer(
  mounts: Record<string, string>,
): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const prefix = Object.keys(mounts)
      .sort((a, b) => b.length - a.length)
      .find((p) => url.pathname.startsWith(p));
    if (!prefix) return void res.writeHead(404).end();
    const root = mounts[prefix]!;
    let file = path.join(root, decodeURIComponent(url.pathname.slice(prefix.length)));
    if (!file.startsWith(root)) return void res.writeHead(403).end();
    try {
      let st = await stat(file);
      if (st.isDirectory()) {
        file = path.join(file, 'index.html');
        st = await stat(file);
      }
      const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
      const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      if (m) {
        const start = Number(m[1]);
        const end = m[2] ? Math.min(Number(m[2]), st.size - 1) : st.size - 1;
        if (start > end || start >= st.size)
          return void res.writeHead(416, { 'content-range': `bytes */${st.size}` }).end();
        res.writeHead(206, {
          'content-type': type,
          'content-length': end - start + 1,
          'content-range': `bytes ${start}-${end}/${st.size}`,
          'accept-ranges': 'bytes',
        });
        createReadStream(file, { start, end }).pipe(res);
      } else {
        res.writeHead(200, { 'content-type': type, 'content-length': st.size, 'accept-ranges': 'bytes' });
        createReadStream(file).pipe(res);
      }
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  if (!addr || typeof addr === 'string') throw new Error('server did not bind');
  return { server, url: `http://127.0.0.1:${addr.port}` };
}
