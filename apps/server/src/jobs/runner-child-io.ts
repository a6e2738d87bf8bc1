import type { Storage } from '../storage/storage';

/** Child-side helpers shared by the `<job>.child.ts` entries (reading stored inputs). */

export async function loadSamples(
  storage: Storage,
  samples: { name: string; datasetKey: string; species?: string }[],
) {
  const { readDataset } = await import('@cellcloud/formats');
  const { storageSource } = await import('./dataset.ingest');
  const out = [];
  for (const s of samples) {
    const st = await storage.stat(s.datasetKey);
    if (!st)
      throw new Error(`The dataset of sample "${s.name}" is missing from storage; re-initiate from upload.`);
    // the canonical dataset of an upload, checked at import: non-integer values were accepted there (issue 32)
    const dataset = await readDataset(
      { name: s.name, entries: [storageSource(storage, s.datasetKey, 'counts.h5ad', st.size)] },
      { allowNonInteger: true },
    );
    out.push({ name: s.name, dataset, ...(s.species ? { species: s.species } : {}) });
  }
  return out;
}

/** A stored typed array (Int32 codes, Uint32 cell indices), copied so it is aligned. */
export async function readWords<T extends Int32Array | Uint32Array>(
  storage: Storage,
  key: string,
  Kind: new (n: number) => T,
): Promise<T> {
  const b = await storage.getBytes(key);
  const out = new Kind(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

export async function readStoredResult(storage: Storage, key: string) {
  const { readH5adBytes } = await import('@cellcloud/formats/read-h5ad');
  // our own result: its counts layer holds the input's values, non-integer ones included (issue 32)
  return readH5adBytes(await storage.getBytes(key), 'analysis.h5ad', { allowNonInteger: true });
}
