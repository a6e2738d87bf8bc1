import path from 'node:path';
import { storeSample, type StreamedSample } from '@cellcloud/engine/stream/types';
import { commonColumns, commonEmbeddings, type NamedDataset } from '@cellcloud/engine/steps/inputs';
import type { Embedding } from '@cellcloud/engine/steps/embeddings';
import type { CellColumn } from '@cellcloud/formats/matrix';
import type { Storage } from '../storage/storage';

/** Child-side helpers shared by the `<job>.child.ts` entries (reading stored inputs). */

export async function loadSamples(
  storage: Storage,
  samples: { name: string; datasetKey: string; species?: string }[],
) {
  const out = [];
  for (const s of samples) out.push(await loadSample(storage, s));
  return out;
}

/** One stored sample's canonical dataset, read whole (the in-memory reader). */
async function loadSample(storage: Storage, s: { name: string; datasetKey: string; species?: string }) {
  const { readDataset } = await import('@cellcloud/formats');
  const { storageSource } = await import('./dataset.ingest');
  const st = await storage.stat(s.datasetKey);
  if (!st)
    throw new Error(`The dataset of sample "${s.name}" is missing from storage; re-initiate from upload.`);
  // the canonical dataset of an upload, checked at import: non-integer values were accepted there (issue 32)
  const dataset = await readDataset(
    { name: s.name, entries: [storageSource(storage, s.datasetKey, 'counts.h5ad', st.size)] },
    { allowNonInteger: true },
  );
  return { name: s.name, dataset, ...(s.species ? { species: s.species } : {}) };
}

/** Stored samples as count stores in a scratch folder, opened for the streamed engine. */
export interface StoredSampleStores {
  samples: StreamedSample[];
  /**
   * The samples' own per-cell columns (h5ad obs: a public dataset's annotation levels, uploaded
   * labels) and embeddings, merged as mergeDatasets does (steps/inputs.ts), with the merged
   * barcodes: what carryInputColumns restricts to the cells kept, as the in-memory path does.
   */
  carry: { barcodes: string[]; columns: Record<string, CellColumn>; embeddings: Record<string, Embedding> };
  /** Closes the stores' files (the caller removes the folder). */
  close(): void;
}

/**
 * The out-of-core path's input (docs/engine-scaling.md "Out-of-core path"): each stored sample
 * written to a count store file under `dir`, one sample at a time, then every store opened by
 * positional reads. A canonical counts.h5ad holds its counts in X, which has no streaming reader
 * (writeStoreFromH5ad streams only a CSR layers["counts"] and would read X whole too), so a
 * sample is read by the same in-memory reader as loadSamples — the same matrix, non-integer
 * values accepted — and handed to the store writer; a sample has fewer than 100,000 cells, so
 * this holds one sample at a time, not the dataset.
 */
export async function storeSamples(
  storage: Storage,
  samples: { name: string; datasetKey: string }[],
  dir: string,
  onSample: (done: number) => void = () => {},
): Promise<StoredSampleStores> {
  const { CountStoreWriter, openCountStore } = await import('@cellcloud/formats/store');
  const { fileRandomAccess, fileSink } = await import('@cellcloud/formats/node-sources');
  const files: ReturnType<typeof fileRandomAccess>[] = [];
  const close = () => {
    for (const f of files) f.close();
  };
  try {
    const out: StreamedSample[] = [];
    // only the cells' table and embeddings are kept of each sample (not its matrix)
    const kept: NamedDataset[] = [];
    for (const [i, s] of samples.entries()) {
      const file = path.join(dir, `sample-${i}.store`);
      {
        const { dataset } = await loadSample(storage, s);
        kept.push({
          name: s.name,
          dataset: {
            ...dataset,
            counts: {
              nGenes: 0,
              nCells: 0,
              indptr: new Float64Array(1),
              indices: new Uint32Array(0),
              data: new Float32Array(0),
            },
          },
        });
        const sink = await fileSink(file);
        try {
          const w = new CountStoreWriter(sink, {
            geneIds: dataset.genes.ids,
            geneSymbols: dataset.genes.symbols,
            sampleName: s.name,
          });
          await w.addCells(dataset.counts, dataset.cells.barcodes);
          await w.finish();
        } finally {
          await sink.close();
        }
      }
      const source = fileRandomAccess(file);
      files.push(source);
      const store = openCountStore(source);
      out.push(storeSample(s.name, store));
      onSample(i + 1);
    }
    const barcodes = kept.flatMap(({ name, dataset }) =>
      kept.length > 1 ? dataset.cells.barcodes.map((b) => `${name}_${b}`) : dataset.cells.barcodes,
    );
    return {
      samples: out,
      carry: { barcodes, columns: commonColumns(kept), embeddings: commonEmbeddings(kept) },
      close,
    };
  } catch (e) {
    close();
    throw e;
  }
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
