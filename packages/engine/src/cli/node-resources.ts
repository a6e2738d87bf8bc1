import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { TaskError } from '../tasks/errors';
import type { ResourceReader } from '../tasks/types';

/**
 * A ResourceReader over a local folder (CELLCLOUD_RESOURCES_DIR; default `../shared/data` beside
 * the checkout). Paths are root-relative; `..` cannot leave the root. A missing file is a
 * TaskError('common.resourceMissing') so the user sees which resource to install.
 */
export function nodeResourceReader(root: string): ResourceReader {
  const resolve = (rel: string): string => {
    const abs = path.resolve(root, rel);
    const r = path.resolve(root);
    if (abs !== r && !abs.startsWith(r + path.sep))
      throw new Error(`resource path "${rel}" leaves the resources folder`);
    return abs;
  };
  const missing = (rel: string) =>
    new TaskError('common.resourceMissing', `The reference resource "${rel}" is not installed.`, {
      path: rel,
    });
  return {
    async readBytes(rel) {
      try {
        return new Uint8Array(await readFile(resolve(rel)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw missing(rel);
        throw e;
      }
    },
    async readText(rel) {
      return new TextDecoder().decode(await this.readBytes(rel));
    },
    async exists(rel) {
      return stat(resolve(rel)).then(
        () => true,
        () => false,
      );
    },
    async list(rel) {
      try {
        return (await readdir(resolve(rel))).sort();
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw missing(rel);
        throw e;
      }
    },
  };
}

/** CELLCLOUD_RESOURCES_DIR, else `<checkout>/../shared/data` (as the README says for other resources). */
export function defaultResourcesDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CELLCLOUD_RESOURCES_DIR) return path.resolve(env.CELLCLOUD_RESOURCES_DIR);
  const checkout = path.resolve(import.meta.dirname, '../../../..');
  return path.resolve(checkout, '../shared/data');
}
