import type { DataShape } from '../_shared/contract/memory';
import type { LayoutParams } from './contract';

/**
 * Peak bytes of a layout run beyond reading the result: the PCs as float64 and float32 (≤ 50 ×
 * 12 B), the 15-neighbour lists and fuzzy graph, and the layout's own buffers — for t-SNE the 90
 * exact neighbours (12 B each) and their affinities — per cell, with a fixed share for Node and
 * the WebAssembly module. Measured on 50,000 cells (50 PCs, 30 used), peak RSS above the
 * process' baseline: t-SNE 206–219 MB (4.1–4.4 kB per cell), 3-D UMAP 92 MB (1.8 kB per cell)
 * (docs/engine-scaling.md "Layouts above 200k cells").
 */
const PER_CELL: Record<LayoutParams['layout'], number> = { tsne: 4_500, umap3D: 2_000, tsne3D: 4_500 };

export function estimateMemoryBytes(shape: DataShape, params?: LayoutParams): number {
  return 250e6 + shape.nCells * PER_CELL[params?.layout ?? 'tsne'];
}
