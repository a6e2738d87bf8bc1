import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { assertKey, type Storage } from './storage';

/** Storage in a local directory (the embedded default: `<dataDir>/storage`). */
export function localStorage(root: string): Storage {
  const abs = (key: string) => path.join(root, assertKey(key));
  const tmpDir = path.join(root, '.tmp');

  async function walk(dir: string, base: string): Promise<string[]> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    const out: string[] = [];
    for (const e of entries) {
      const rel = base ? `${base}/${e.name}` : e.name;
      if (e.isDirectory()) out.push(...(await walk(path.join(dir, e.name), rel)));
      else out.push(rel);
    }
    return out;
  }

  return {
    kind: 'local',
    async put(key, body) {
      const dest = abs(key);
      await mkdir(path.dirname(dest), { recursive: true });
      await mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, randomUUID());
      try {
        if (body instanceof Uint8Array) await writeFile(tmp, body);
        else await pipeline(body, createWriteStream(tmp));
      } catch (e) {
        // a body refused or cut off half way (e.g. a video failing its checks) leaves nothing behind
        await rm(tmp, { force: true });
        throw e;
      }
      await rename(tmp, dest);
    },
    async get(key, range) {
      const p = abs(key);
      await stat(p); // throws ENOENT early
      return createReadStream(p, range ? { start: range.start, end: range.end } : undefined);
    },
    async getBytes(key) {
      return new Uint8Array(await readFile(abs(key)));
    },
    async stat(key) {
      try {
        const s = await stat(abs(key));
        return s.isFile() ? { size: s.size, mtime: s.mtime } : undefined;
      } catch {
        return undefined;
      }
    },
    async delete(key) {
      if (key.endsWith('/')) await rm(abs(key.slice(0, -1)), { recursive: true, force: true });
      else await rm(abs(key), { force: true });
    },
    async list(prefix) {
      const p = prefix.replace(/\/$/, '');
      return (await walk(abs(p), p)).sort();
    },
    async movePrefix(fromPrefix, toPrefix) {
      const from = abs(fromPrefix.replace(/\/$/, ''));
      const to = abs(toPrefix.replace(/\/$/, ''));
      await mkdir(path.dirname(to), { recursive: true });
      await rm(to, { recursive: true, force: true });
      await rename(from, to);
    },
    async usage(prefix) {
      let total = 0;
      for (const k of await this.list(prefix)) total += (await this.stat(k))?.size ?? 0;
      return total;
    },
    async check() {
      await mkdir(root, { recursive: true });
      const probe = path.join(root, `.health-${randomUUID()}`);
      await writeFile(probe, 'ok');
      await rm(probe, { force: true });
    },
  };
}

export { Readable };
