import { readFile } from 'node:fs/promises';
import { readDataset, readH5adBytes } from '@cellcloud/formats';
import { filesBundle } from '@cellcloud/formats/node-sources';
import { SHARED_DATA_DIR, sharedData } from '@cellcloud/testkit';
import { nodeResourceReader } from '@cellcloud/engine/cli/kit';
import { MemorySink, resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import type { EngineTask, ResultHandle, SourceTask } from '@cellcloud/engine/tasks/kit';

/** Shared fixtures of the enrichment task tests (pbmc3k with tutorial labels, ifnb ctrl/stim). */
export const resources = nodeResourceReader(SHARED_DATA_DIR);

export async function pbmc3k(species = 'human'): Promise<ResultHandle> {
  const ds = await readH5adBytes(
    new Uint8Array(await readFile(sharedData('pbmc3k/pbmc3k.h5ad')!)),
    'pbmc3k.h5ad',
  );
  return resultHandleFromDataset(ds, { species });
}

const IFNB = 'ifnb_kang2018_subset';
export const IFNB_FILES = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'].map((f) => `${IFNB}/${f}`);

/**
 * The Kang 2018 IFN-β subset with `batch` (ctrl / stim from the barcode prefix) and `cellType`:
 * no labels ship with the subset, so monocytes are the cells with log-normalized LYZ ≥ 3 and
 * no CD3D / MS4A1 / NKG7 / GNLY (T, B, NK markers) — a marker gate, documented here.
 */
export async function ifnb(): Promise<ResultHandle> {
  const ds = await readDataset(
    await filesBundle(
      IFNB,
      IFNB_FILES.map((f) => sharedData(f)!),
    ),
  );
  const batch = ds.cells.barcodes.map((b) => (b.startsWith('stim_') ? 'stim' : 'ctrl'));
  const pre = resultHandleFromDataset(ds, { species: 'human' });
  const norm = pre.normalized();
  const lyz = pre.geneIndex('LYZ');
  const others = new Set(['CD3D', 'MS4A1', 'NKG7', 'GNLY'].map((g) => pre.geneIndex(g)));
  const cellType = Array.from({ length: pre.nCells }, (_, c) => {
    let l = 0;
    let other = false;
    for (let k = norm.indptr[c]!; k < norm.indptr[c + 1]!; k++) {
      if (norm.indices[k] === lyz) l = norm.data[k]!;
      else if (others.has(norm.indices[k]!) && norm.data[k]! > 0) other = true;
    }
    return l >= 3 && !other ? 'mono' : 'other';
  });
  return resultHandleFromDataset(ds, {
    species: 'human',
    extraObs: {
      batch: { kind: 'categorical', values: batch },
      cellType: { kind: 'categorical', values: cellType },
    },
  });
}

/** Runs an engine task into a MemorySink with schema-parsed params. */
export async function runInMemory<P, S>(
  task: EngineTask<P, S>,
  result: ResultHandle,
  params: P,
  extra: { source?: SourceTask; uploads?: Record<string, Uint8Array> } = {},
): Promise<{ summary: S; sink: MemorySink }> {
  const sink = new MemorySink();
  const summary = await task.run({ result, params, onProgress: () => {}, sink, resources, ...extra });
  return { summary, sink };
}

/** A deg-groups run as the source task of enrich / gsea (what the server hands over). */
export function sourceOf(summary: unknown, sink: MemorySink): SourceTask {
  return {
    name: 'deg-groups',
    summary,
    readTable: async (name) => {
      const t = sink.tables.get(name);
      if (!t) throw new Error(`no table ${name}`);
      return t;
    },
    readData: async () => new Uint8Array(0),
  };
}
