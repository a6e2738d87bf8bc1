import type { DegRow } from '@cellcloud/contracts/artifacts';
import {
  beginArtifacts,
  beginH5ad,
  MemorySink,
  type ArtifactInput,
  type ArtifactSink,
  type H5adInProgress,
  type H5adInput,
  type PositionalSink,
} from '@cellcloud/formats';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import { csvCell } from '@cellcloud/formats/table-export';
import type { AnalysisResult } from './run-analysis';

/** A file being written at positions (the streaming h5ad writer appends compressed chunks, then patches its header). */
export interface OutputFile extends PositionalSink {
  close(): Promise<void>;
}

/**
 * Where outputs go (a directory, object storage, memory): paths are relative to the result root.
 * With `open`, analysis.h5ad streams into the file as it is produced (the 100k job never holds the
 * whole file); without it the file is assembled in memory and handed to `write`.
 */
export type OutputSink = ArtifactSink & { open?(path: string): Promise<OutputFile> };

/** gzip level of analysis.h5ad's arrays (see writeOutputs). */
export const H5AD_DEFLATE_LEVEL = 1;

export const OUTPUT_FILES = {
  h5ad: 'analysis.h5ad',
  markers: 'markers.csv',
  artifacts: 'artifacts/',
} as const;

/** docs/product/entities.md#deg-table DEG table headers, in the CSV column order. */
export const MARKER_CSV_HEADER = [
  'cluster',
  'Gene id',
  'Average expression (normalized)',
  'Log2FC',
  'Pct1',
  'Pct2',
  'Z score',
  'P_val',
  'Adjusted p value',
] as const;

/** The unfiltered marker table as CSV (one row per cluster × gene), text cells spreadsheet-safe. */
export function markersCsv(rows: DegRow[]): string {
  const lines = [MARKER_CSV_HEADER.join(',')];
  for (const r of rows) {
    lines.push(
      [r.cluster, r.gene, r.avgExpr, r.log2fc, r.pct1, r.pct2, r.zscore, r.pval, r.padj]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes `analysis.h5ad` (X = log-normalized, layers.counts, obs cluster/Sample ID/QC columns,
 * var highly_variable, obsm X_pca/X_umap/X_tsne[/X_pca_harmony]), `markers.csv` and the explorer
 * artifacts under `artifacts/` through the formats writers. Returns the artifact manifest.
 */
export async function writeOutputs(result: AnalysisResult, sink: OutputSink): Promise<ArtifactManifest> {
  const outputs = await startOutputs(result, sink);
  return outputs.finish(result);
}

/** Outputs whose large parts (the matrices) are written; `finish` writes the rest. */
export interface OutputsInProgress {
  /** Writes per-cell columns, var, embeddings, markers, uns and the manifests; closes the files. */
  finish(result: ResultRest): Promise<ArtifactManifest>;
}

/**
 * writeOutputs in two parts, for writing while the embeddings compute (runAnalysis
 * whileEmbeddings): the large, final parts now — the h5ad's X and layers, the explorer's genes and
 * gene-major expression layers — and everything else with `finish`, from the final result (so
 * per-cell columns added after the pipeline, e.g. annotations, are written too). No copy is held
 * in between: the open h5ad keeps only its chunk index.
 */
export async function startOutputs(early: AnalysisResult, sink: OutputSink): Promise<OutputsInProgress> {
  const matrices: H5adInput = {
    counts: early.counts,
    normalized: early.normalized,
    genes: { ids: early.geneIds, symbols: early.geneSymbols },
    barcodes: early.barcodes,
    // deflate level 1: at 20k cells (synthetic) 1.84 CPU s / 71.7 MB against 2.57 / 64.4 at level 4
    // (integers byte-shuffled, the counts' indices linked to X's: 4.45 / 131 MB before)
    compression: H5AD_DEFLATE_LEVEL,
  };
  return startOutputsWith(early, sink, {
    nCells: early.counts.nCells,
    h5ad: (target) => beginH5ad(matrices, target),
    layers: { layers: { counts: early.counts, normalized: early.normalized } },
  });
}

/** The result's fields other than the matrices: what `OutputsInProgress.finish` writes. */
export type ResultRest = Omit<AnalysisResult, 'counts' | 'normalized'>;

/**
 * startOutputs with the matrices' writers given: beginH5ad's (or beginH5adRanges') start of
 * analysis.h5ad into the target, and the explorer's expression layers (in memory or gene blocks:
 * stream/write-streamed.ts).
 */
export async function startOutputsWith(
  early: ResultRest,
  sink: OutputSink,
  matrices: {
    nCells: number;
    h5ad: (target: PositionalSink) => Promise<H5adInProgress>;
    layers: Pick<ArtifactInput, 'layers' | 'geneLayers'>;
  },
): Promise<OutputsInProgress> {
  const genes = { ids: early.geneIds, symbols: early.geneSymbols };
  const file = sink.open ? await sink.open(OUTPUT_FILES.h5ad) : undefined;
  const memory = file ? undefined : new MemorySink();
  let h5ad: H5adInProgress;
  try {
    h5ad = await matrices.h5ad((file ?? memory)!);
  } catch (e) {
    await file?.close();
    throw e;
  }
  const open = sink.open?.bind(sink);
  const artifactSink: ArtifactSink = {
    write: (p, bytes) => sink.write(`${OUTPUT_FILES.artifacts}${p}`, bytes),
    ...(open ? { open: (p: string) => open(`${OUTPUT_FILES.artifacts}${p}`) } : {}),
  };
  const artifacts = await beginArtifacts(
    {
      engineVersion: early.engineVersion,
      species: early.species,
      genes,
      nCells: matrices.nCells,
      ...matrices.layers,
      h5ad: `../${OUTPUT_FILES.h5ad}`,
    },
    artifactSink,
  );
  return {
    async finish(result) {
      const e = result.embeddings;
      // each layout only when computed: above STREAMED_ALL_LAYOUTS_MAX_CELLS the out-of-core run
      // has no t-SNE (stream/run-streamed.ts), and its 'none' layouts no UMAP either
      const obsm: Record<string, { dims: number; values: Float32Array }> = { X_pca: e.pca };
      if (e.umap) obsm.X_umap = e.umap;
      if (e.tsne) obsm.X_tsne = e.tsne;
      if (e.pcaCorrected) obsm[`X_pca_${result.qc.batchCorrection}`] = e.pcaCorrected;
      if (e.umap3D) obsm.X_umap3D = e.umap3D;
      if (e.tsne3D) obsm.X_tsne3D = e.tsne3D;
      // embeddings carried from the upload (h5ad obsm, issue 13): X_<name>, spatial as AnnData names it
      const carried = Object.entries(e).filter(
        ([k]) => !['pca', 'pcaCorrected', 'umap', 'tsne', 'umap3D', 'tsne3D'].includes(k),
      );
      for (const [k, v] of carried) obsm[k === 'spatial' ? k : `X_${k}`] = v;
      try {
        await h5ad.finish({
          obs: result.obs,
          var: { highly_variable: { kind: 'boolean', values: result.highlyVariable } },
          obsm,
          uns: {
            cellcloud: {
              engineVersion: result.engineVersion,
              params: JSON.stringify(result.params),
              nPcsUsed: result.qc.nPcsUsed,
              batchCorrection: result.qc.batchCorrection,
            },
          },
        });
      } finally {
        await file?.close();
      }
      if (memory) await sink.write(OUTPUT_FILES.h5ad, memory.bytes());
      await sink.write(OUTPUT_FILES.markers, new TextEncoder().encode(markersCsv(result.markers)));
      const embeddings: Record<string, { dims: number; values: Float32Array }> = {};
      if (e.umap) embeddings.umap = e.umap;
      if (e.tsne) embeddings.tsne = e.tsne;
      if (e.umap3D) embeddings.umap3D = e.umap3D;
      if (e.tsne3D) embeddings.tsne3D = e.tsne3D;
      for (const [k, v] of carried) embeddings[k] = v;
      return artifacts.finish({
        obs: result.obs,
        embeddings,
        markers: { cluster: result.markers },
        qc: result.qc,
        // the layouts the run left out and why, for the explorer to say
        layoutsNotComputed: result.layoutsNotComputed,
      });
    },
  };
}
