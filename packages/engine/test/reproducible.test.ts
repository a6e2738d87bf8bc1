import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDataset, isGroup, withH5, type H5Group } from '@cellcloud/formats/h5-io';
import { REPO_ROOT, sharedData } from '@cellcloud/testkit';

const BIN = path.join(REPO_ROOT, 'packages/engine/bin/cellcloud.mjs');
const pbmc = sharedData('pbmc3k/10x');

/** `cellcloud analyze pbmc3k --out <dir>` with every default, on `threads` engine threads. */
function analyze(out: string, threads: 1 | 2): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'analyze', pbmc!, '--out', out, '--quiet'], {
      cwd: REPO_ROOT,
      env: { ...process.env, CELLCLOUD_ENGINE_THREADS: String(threads) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`analyze exited ${code}: ${err}`)),
    );
  });
}

/** sha256 of the stored bytes of every dataset of an h5ad file, keyed by its path. */
async function datasetHashes(file: string): Promise<Record<string, string>> {
  const bytes = new Uint8Array(await readFile(file));
  return withH5(bytes, file, (f) => {
    const out: Record<string, string> = {};
    const walk = (g: H5Group, at: string) => {
      for (const name of g.keys()) {
        const e = g.get(name);
        const p = `${at}/${name}`;
        if (isGroup(e)) walk(e, p);
        else if (isDataset(e)) {
          const v = e.value as unknown;
          const raw = ArrayBuffer.isView(v)
            ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength)
            : new TextEncoder().encode(JSON.stringify(v));
          out[p] = `${e.dtype} ${JSON.stringify(e.shape)} ${createHash('sha256').update(raw).digest('hex')}`;
        }
      }
    };
    walk(f, '');
    return out;
  });
}

/**
 * Reproducible to the bit (issue 32, docs/reproducibility.md): pbmc3k with every default through
 * the CLI twice on two engine threads and once on one thread. Every dataset of analysis.h5ad —
 * obs (clusters, QC, doublet scores, cell-cycle scores), obsm (PCA, UMAP 2D/3D, t-SNE 2D/3D), X,
 * layers, var — and markers.csv are byte-identical across the three runs.
 */
describe.skipIf(!pbmc)('bit-identical reruns of pbmc3k', () => {
  let dir: string;
  const runs = { a: '', b: '', one: '' };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cc-repro-'));
    for (const k of Object.keys(runs) as (keyof typeof runs)[]) runs[k] = path.join(dir, k);
    // the three runs at once (separate processes: scran.js fixes its thread count per process)
    await Promise.all([analyze(runs.a, 2), analyze(runs.b, 2), analyze(runs.one, 1)]);
  }, 1_200_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('two runs give identical obs and obsm bytes (and every other dataset, and markers.csv)', async () => {
    const a = await datasetHashes(path.join(runs.a, 'analysis.h5ad'));
    const b = await datasetHashes(path.join(runs.b, 'analysis.h5ad'));
    expect(Object.keys(a).filter((k) => k.startsWith('/obs/')).length).toBeGreaterThanOrEqual(10);
    expect(Object.keys(a)).toEqual(
      expect.arrayContaining(['/obs/cluster/codes', '/obsm/X_pca', '/obsm/X_umap', '/obsm/X_tsne']),
    );
    expect(b).toEqual(a);
    expect(await readFile(path.join(runs.b, 'markers.csv'), 'utf8')).toBe(
      await readFile(path.join(runs.a, 'markers.csv'), 'utf8'),
    );
  });

  it('a run on one thread equals a run on two', async () => {
    const two = await datasetHashes(path.join(runs.a, 'analysis.h5ad'));
    const one = await datasetHashes(path.join(runs.one, 'analysis.h5ad'));
    expect(one).toEqual(two);
    expect(await readFile(path.join(runs.one, 'markers.csv'), 'utf8')).toBe(
      await readFile(path.join(runs.a, 'markers.csv'), 'utf8'),
    );
  });
});
