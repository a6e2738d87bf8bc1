import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { detectFormat, detectSpecies, pick10xMtx, readDataset, readText } from '@cellcloud/formats';
import { fileRandomAccess, fileSink, pathBundle } from '@cellcloud/formats/node-sources';
import {
  CountStoreWriter,
  openCountStore,
  writeStoreFrom10xMtx,
  writeStoreFromH5ad,
  type StoreWriteResult,
} from '@cellcloud/formats/store';
import { notStreamable, STREAMED_MIN_CELLS } from '../memory';
import type { ProgressCallback } from '../steps/step';
import { runAnalysisStreamed } from '../stream/run-streamed';
import { storeSample, type StreamedAnalysisResult, type StreamedSample } from '../stream/types';
import { sampleName } from './args';

/**
 * The CLI's out-of-core path (issue 33, docs/engine-scaling.md "Out-of-core path"): each input is
 * written to a count store in a temporary folder by streaming (10x MTX folders and CSR h5ad; other
 * formats are read whole once, then written), the pipeline runs on the stores
 * (runAnalysisStreamed) and the caller writes the outputs from the result's views. The folder is
 * removed by `close()`.
 */
export interface OutOfCoreRun {
  result: StreamedAnalysisResult;
  close(): Promise<void>;
}

/**
 * Input cells counted without reading the matrices: the barcodes of 10x MTX folders; other
 * formats count as 0 (unknown — they take the in-memory path unless --out-of-core is given).
 */
export async function countInputCells(inputs: string[]): Promise<number> {
  let cells = 0;
  for (const input of inputs) {
    try {
      const d = await detectFormat(await pathBundle(path.resolve(input)));
      if (d.format !== '10x-mtx') continue;
      const text = await readText(pick10xMtx(d.bundle).barcodes);
      cells += text.split('\n').filter((l) => l.trim()).length;
    } catch {
      // unreadable here: readDataset / the store writer report it with its own message
    }
  }
  return cells;
}

/**
 * From this many input cells `analyze` takes the out-of-core path by itself: 50,000, below the job
 * server's STREAMED_MIN_CELLS (200k: its out-of-core job has no automatic annotation, public-label
 * transfer or checkpoints yet; the CLI's only lacks the annotation, see useOutOfCore). On 100k
 * PBMC-like cells (two 50k-cell 10x folders, docs/benchmarks/cli.md) the two paths gave the same
 * clusters (the same label on all 99,698 cells) for about the same CPU (985 against 936 s, both at
 * load 10–27 on 2 cores), with a peak RSS of 1,241 MB against 3,126 MB: the in-memory path holds
 * the matrix and its normalized copy (12 B per non-zero), the out-of-core one decodes its stores
 * chunk by chunk. Below 50k cells the in-memory peak stays under ≈ 1.6 GB.
 */
export const CLI_STREAMED_MIN_CELLS = 50_000;

/**
 * Whether `analyze` takes the out-of-core path: as asked (--out-of-core / --in-memory), else from
 * `minCells` (CLI_STREAMED_MIN_CELLS) input cells — unless `params` ask for what the out-of-core
 * run lacks (memory.ts notStreamable: ambient RNA removal, cell-cycle regression, …, or the
 * automatic cell annotation) and the inputs have fewer than STREAMED_MIN_CELLS cells: those run in
 * memory, as the job server runs them; from STREAMED_MIN_CELLS on the out-of-core run refuses such
 * options with a message naming them (and skips the annotation with a note).
 */
export async function useOutOfCore(
  inputs: string[],
  asked: boolean | undefined,
  params: Record<string, unknown> = {},
  minCells = CLI_STREAMED_MIN_CELLS,
): Promise<boolean> {
  if (asked !== undefined) return asked;
  const cells = await countInputCells(inputs);
  if (cells < minCells) return false;
  const annotation = params.chooseAnnotationType !== undefined && params.chooseAnnotationType !== 'none';
  return !(
    (notStreamable(params).length > 0 || annotation) &&
    cells < Math.max(minCells, STREAMED_MIN_CELLS)
  );
}

/** Writes one input to a count store file; returns what the writer found. */
async function writeInputStore(input: string, file: string, name: string): Promise<StoreWriteResult> {
  const full = path.resolve(input);
  const sink = await fileSink(file);
  try {
    const d = await detectFormat(await pathBundle(full));
    if (d.format === '10x-mtx') return await writeStoreFrom10xMtx(d.bundle, sink, { sampleName: name });
    if (d.format === 'h5ad' && (await stat(full)).isFile()) {
      const source = fileRandomAccess(full);
      try {
        return await writeStoreFromH5ad(source, path.basename(full), sink, { sampleName: name });
      } finally {
        source.close();
      }
    }
    // other formats have no streaming reader: read whole once (as the in-memory path does), then written
    const ds = await readDataset(await pathBundle(full), { nonIntegerFormats: ['dense-text'] });
    const w = new CountStoreWriter(sink, {
      geneIds: ds.genes.ids,
      geneSymbols: ds.genes.symbols,
      sampleName: name,
    });
    await w.addCells(ds.counts, ds.cells.barcodes);
    const done = await w.finish();
    return {
      ...done,
      geneIds: ds.genes.ids,
      geneSymbols: ds.genes.symbols,
      barcodes: ds.cells.barcodes,
      warnings: [...ds.warnings, 'this format has no streaming reader: it was read whole once'],
      streamed: false,
    };
  } finally {
    await sink.close();
  }
}

/** Converts the inputs to count stores and runs the pipeline on them. */
export async function runOutOfCore(
  inputs: string[],
  params: Record<string, unknown>,
  log: (msg: string) => void,
  onProgress?: ProgressCallback,
): Promise<OutOfCoreRun> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cellcloud-stores-'));
  const files: { close(): void }[] = [];
  const close = async () => {
    for (const f of files) f.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const samples: StreamedSample[] = [];
    let species: string | undefined;
    let logNormalized = false;
    for (const [i, input] of inputs.entries()) {
      const t0 = performance.now();
      const name = sampleName(input);
      const file = path.join(dir, `${i}.ccs`);
      const written = await writeInputStore(input, file, name);
      const source = fileRandomAccess(file);
      files.push(source);
      const store = openCountStore(source);
      samples.push(storeSample(name, store));
      const guess = detectSpecies({ ids: store.geneIds, symbols: store.geneSymbols });
      if (guess.species !== 'unknown') species ??= guess.species;
      if (store.valueKind === 'logNormalized') logNormalized = true;
      log(
        `stored ${name}: ${store.cells.nCells} cells × ${store.geneIds.length} genes, ${store.nnz} non-zeros, ` +
          `${(store.bytes / store.nnz || 0).toFixed(2)} B per non-zero (${written.streamed ? 'streamed' : 'read whole'}, ${guess.species}, ${store.valueKind}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      for (const w of written.warnings) log(`  note: ${w}`);
    }
    if (params.species === undefined && species) params.species = species;
    // as the wizard does: log-normalized values have no raw counts for Scrublet or DecontX
    if (logNormalized) {
      params.doubletDetectionAndRemoval ??= false;
      params.ambientRnaRemoval ??= { enabled: false };
      log('log-normalized values: normalization skipped; doublet detection and ambient RNA removal off');
    }
    const result = await runAnalysisStreamed(samples, params, onProgress);
    return { result, close };
  } catch (e) {
    await close();
    throw e;
  }
}
