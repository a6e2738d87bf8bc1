import type { AnalysisParams } from '@cellcloud/contracts/analysis-params';
import type { ValueKind } from '@cellcloud/contracts/files';
import type { CellChunks } from '@cellcloud/formats/cell-chunks';
import { EngineError } from '../errors';
import { dispersionHvgFromSums } from '../stats/dispersion-hvg';
import { seuratV3ClippedSums, seuratV3Select, seuratV3Trend } from '../stats/seurat-v3-hvg';
import type { HvgResult } from '../steps/hvg';
import { forEachChunk } from './select';
import { COUNT_MEMO, CountMemo, type NormalizedCells } from './views';

/**
 * HvgStep (steps/hvg.ts) from per-gene sums gathered chunk by chunk: one pass over the counts and
 * their normalized values (sums and sums of squares: the seurat_v3 trend and the 'seurat'
 * dispersions, whose means every flavour reports), and for seurat_v3 a second pass for the
 * clipped counts. The sums are taken cell after cell as in memory, so the result is the same.
 * Pearson residuals are not streamed yet: a clear error.
 */
export function streamedHvg(
  counts: CellChunks,
  normalized: CellChunks & Pick<NormalizedCells, 'fromCounts'>,
  kind: ValueKind,
  params: Pick<AnalysisParams, 'numberOfHighlyVariableGenes' | 'hvgMethod'>,
): HvgResult {
  const nGenes = counts.nGenes;
  const nCells = counts.nCells;
  const nTop = Math.min(params.numberOfHighlyVariableGenes, nGenes);
  const method = kind === 'logNormalized' ? 'seurat' : params.hvgMethod;
  if (method === 'pearson')
    throw new EngineError(
      'INVALID_PARAMS',
      'Pearson-residual highly variable genes are not available for out-of-core analyses yet; choose seurat_v3 or seurat.',
      { hvgMethod: 'pearson' },
    );
  const nSum = new Float64Array(nGenes);
  const nSq = new Float64Array(nGenes);
  const cSum = new Float64Array(nGenes);
  const cSq = new Float64Array(nGenes);
  const fromCounts = normalized.fromCounts;
  if (fromCounts && fromCounts.cells === counts)
    normalizedSums(counts, fromCounts.factor, method === 'seurat_v3', nSum, nSq, cSum, cSq);
  else
    for (let i = 0; i < normalized.chunkCount; i++) {
      const m = normalized.chunk(i);
      for (let k = 0; k < m.data.length; k++) {
        const v = Math.expm1(m.data[k]);
        const g = m.indices[k];
        nSum[g] += v;
        nSq[g] += v * v;
      }
      if (method !== 'seurat_v3') continue;
      const raw = counts.chunk(i);
      for (let k = 0; k < raw.data.length; k++) {
        const v = raw.data[k];
        cSum[raw.indices[k]] += v;
        cSq[raw.indices[k]] += v * v;
      }
    }
  const d = dispersionHvgFromSums(nSum, nSq, nCells, nTop);
  if (method !== 'seurat_v3') return { selected: d.selected, score: d.dispersionsNorm, means: d.means };
  const trend = seuratV3Trend(cSum, cSq, nCells);
  cSum.fill(0);
  cSq.fill(0);
  forEachChunk(counts, (m) => seuratV3ClippedSums(m, trend.clip, cSum, cSq));
  const v = seuratV3Select(trend, cSum, cSq, nCells, nTop);
  return { selected: v.selected, score: v.variancesNorm, means: d.means };
}

/**
 * The first pass for integer counts (normalized = logNormalizedCells(counts), stream/views.ts):
 * each chunk of counts is decoded once and its normalized values computed here, the same float32
 * log1p(count × factor) the view gives, expm1 of it memoized per cell and count (stream/views.ts
 * CountMemo). The sums are added in the same order as from the two views, so they are the same.
 */
function normalizedSums(
  counts: CellChunks,
  factor: Float64Array,
  withCounts: boolean,
  nSum: Float64Array,
  nSq: Float64Array,
  cSum: Float64Array,
  cSq: Float64Array,
): void {
  const memo = new CountMemo(Float64Array);
  const { stamp, value } = memo;
  for (let i = 0; i < counts.chunkCount; i++) {
    const m = counts.chunk(i);
    const c0 = counts.chunkStart(i);
    const { indptr, indices, data } = m;
    for (let c = 0; c < m.nCells; c++) {
      const f = factor[c0 + c];
      const tag = memo.next();
      const e = indptr[c + 1];
      for (let k = indptr[c]; k < e; k++) {
        const x = data[k];
        const g = indices[k];
        const n = x | 0;
        let v: number;
        if (n === x && n >= 0 && n < COUNT_MEMO) {
          if (stamp[n] !== tag) {
            stamp[n] = tag;
            value[n] = Math.expm1(Math.fround(Math.log1p(x * f)));
          }
          v = value[n];
        } else v = Math.expm1(Math.fround(Math.log1p(x * f)));
        nSum[g] += v;
        nSq[g] += v * v;
        if (withCounts) {
          cSum[g] += x;
          cSq[g] += x * x;
        }
      }
    }
  }
}
