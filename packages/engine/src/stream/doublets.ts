import type { CellChunks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { scrublet } from '../methods/scrublet';
import type { SampleDoublets } from '../steps/doublets';
import type { StepProgress } from '../steps/step';

export interface StreamedDoublets {
  /** Per cell of `cells`: 1 when kept (not a predicted doublet). */
  keep: Uint8Array;
  /** Scrublet score per cell of `cells`. */
  score: Float32Array;
  doublets: SampleDoublets[];
}

/**
 * DoubletStep (steps/doublets.ts) on bounded memory: Scrublet per sample on that sample's filtered
 * cells loaded into a matrix (a sample has < 100,000 cells: docs/product/validation.md), one sample
 * at a time — the same Scrublet entry and inputs as the in-memory step, so the same scores.
 * `sampleStart`: first cell of each sample in `cells` (samples are contiguous, in order).
 */
export async function streamedDoublets(
  cells: CellChunks,
  sampleStart: number[],
  sampleNames: string[],
  seed: number,
  progress: StepProgress,
): Promise<StreamedDoublets> {
  const nSamples = sampleNames.length;
  const keep = new Uint8Array(cells.nCells).fill(1);
  const score = new Float32Array(cells.nCells);
  const doublets: SampleDoublets[] = [];
  for (let s = 0; s < nSamples; s++) {
    const c0 = sampleStart[s];
    const m = loadCells(cells, c0, sampleStart[s + 1]);
    const r = await scrublet(m, {
      seed,
      onProgress: (f) => progress((s + f) / nSamples, `Scrublet on sample ${sampleNames[s]}`),
    });
    let removed = 0;
    for (let i = 0; i < m.nCells; i++) {
      score[c0 + i] = r.scores[i];
      if (r.predicted[i]) {
        keep[c0 + i] = 0;
        removed++;
      }
    }
    doublets.push({
      sample: sampleNames[s],
      threshold: r.threshold,
      doubletRate: r.doubletRate,
      expectedDoubletRate: r.expectedDoubletRate,
      removed,
    });
  }
  return { keep, score, doublets };
}

/**
 * Cells [c0, c1) of `cells` as one matrix (indices in shared memory, as the merged input's are in
 * memory: Scrublet's products may then run on two threads).
 */
export function loadCells(cells: CellChunks, c0: number, c1: number): CountMatrix {
  const parts: { m: CountMatrix; from: number; to: number }[] = [];
  let nnz = 0;
  for (let i = 0; i < cells.chunkCount; i++) {
    const s = cells.chunkStart(i);
    const e = cells.chunkStart(i + 1);
    if (e <= c0 || s >= c1 || e === s) continue;
    const m = cells.chunk(i);
    const from = Math.max(c0, s) - s;
    const to = Math.min(c1, e) - s;
    parts.push({ m, from, to });
    nnz += m.indptr[to] - m.indptr[from];
  }
  const indptr = new Float64Array(c1 - c0 + 1);
  const indices = new Uint32Array(new SharedArrayBuffer(nnz * 4));
  const data = new Float32Array(nnz);
  let p = 0;
  let c = 0;
  for (const { m, from, to } of parts) {
    indices.set(m.indices.subarray(m.indptr[from], m.indptr[to]), p);
    data.set(m.data.subarray(m.indptr[from], m.indptr[to]), p);
    for (let j = from; j < to; j++) {
      p += m.indptr[j + 1] - m.indptr[j];
      indptr[++c] = p;
    }
  }
  return { nGenes: cells.nGenes, nCells: c1 - c0, indptr, indices, data };
}
