import { z } from 'zod';

/**
 * Explorer artifacts: what an analysis writes for the browser (docs/artifacts.md).
 * All binary files are little-endian. The manifest is the only JSON; cells are never JSON.
 *
 * Layout under the result directory:
 *   manifest.json
 *   embeddings/<name>.f32      Float32, nCells × dims, row-major (x0,y0[,z0],x1,…) (format 1)
 *   embeddings/<name>.q24      (format 2) unsigned 24-bit integers, 3 bytes each, same order:
 *                              coordinate = min[d] + q · (max[d] − min[d]) / (2^24 − 1)
 *   obs/<key>.u16|u32          categorical codes (index into `labels`), one per cell
 *   obs/<key>.f32              numeric per-cell column
 *   genes.json                 { ids: string[], symbols: string[] } (order = gene index)
 *   expr/<layer>.bin           per-gene sparse chunks, concatenated; chunk of gene g =
 *                              [nnz:uint32][cellIdx: uint32 × nnz][value: float32 × nnz]
 *                              (format 1; format 2: the compact chunk of docs/artifacts.md)
 *   expr/<layer>.idx           Float64Array of length 2·nGenes: (byteOffset, byteLength) per gene;
 *                              the browser fetches one gene with an HTTP Range request
 *   expr/<layer>.clen          (format 2) Uint32Array of nGenes: byte length of each compact
 *                              chunk's colour prefix (header, cells, 16-bit values)
 *   markers/<groupBy>.json     marker table rows (DEG columns of docs/product/entities.md#deg-table), unfiltered
 *   qc.json                    QC summary: thresholds, before/after counts per sample, doublet and
 *                              ambient-RNA results
 */
export const embeddingKinds = ['umap', 'tsne', 'umap3D', 'tsne3D', 'spatial', 'pca'] as const;

/** The manifest's `layoutsNotComputed`: which layouts are missing because the input had more than `maxCells` cells. */
export const layoutsNotComputed = z.object({
  names: z.array(z.enum(embeddingKinds)).min(1),
  reason: z.literal('cells'),
  /** Input cells of the analysis (before QC), the number compared with `maxCells`. */
  cells: z.number().int(),
  maxCells: z.number().int(),
});
export type LayoutsNotComputed = z.infer<typeof layoutsNotComputed>;

export const artifactManifest = z.object({
  /** 1: float32 positions and 8 bytes per non-zero; 2: compact (docs/artifacts.md#format-2). */
  formatVersion: z.union([z.literal(1), z.literal(2)]),
  engineVersion: z.string(),
  nCells: z.number().int(),
  nGenes: z.number().int(),
  species: z.string(),
  embeddings: z.array(
    z.object({
      name: z.string(),
      dims: z.number().int().min(2).max(3),
      file: z.string(),
      /** Format 2: positions quantised to 24 bits within this bounding box (per dimension). */
      quantised: z
        .object({ bits: z.literal(24), min: z.array(z.number()), max: z.array(z.number()) })
        .optional(),
    }),
  ),
  obs: z.array(
    z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('categorical'),
        key: z.string(),
        file: z.string(),
        dtype: z.enum(['u16', 'u32']),
        labels: z.array(z.string()),
      }),
      z.object({
        kind: z.literal('numeric'),
        key: z.string(),
        file: z.string(),
        min: z.number(),
        max: z.number(),
      }),
    ]),
  ),
  genes: z.object({ file: z.string(), count: z.number().int() }),
  layers: z.array(
    z.object({
      name: z.enum(['counts', 'normalized']),
      data: z.string(),
      index: z.string(),
      /** Format 2: compact chunks; the colour prefix lengths of expr/<layer>.clen. */
      compact: z.object({ colourLengths: z.string() }).optional(),
      /** Non-zeros of the layer (format 2; in format 1 they follow from data's size, 4·nGenes + 8·nnz). */
      nnz: z.number().int().optional(),
    }),
  ),
  markers: z.array(z.object({ groupBy: z.string(), file: z.string() })),
  qc: z.string().optional(),
  h5ad: z.string().optional(),
  /**
   * Layouts the run did not compute, and why (docs/artifacts.md#layouts-not-computed): the
   * out-of-core run makes only the 2-D UMAP above `maxCells` input cells. Absent: nothing left out
   * (or a result written before the field).
   */
  layoutsNotComputed: layoutsNotComputed.optional(),
});
export type ArtifactManifest = z.infer<typeof artifactManifest>;

/** One row of a DEG / marker table: exactly the docs/product/entities.md#deg-table DEG columns. */
export const degRow = z.object({
  cluster: z.string(),
  gene: z.string(),
  avgExpr: z.number(), // Average expression (normalized) in the group
  log2fc: z.number(),
  pct1: z.number(),
  pct2: z.number(),
  zscore: z.number(),
  pval: z.number(),
  padj: z.number(),
});
export type DegRow = z.infer<typeof degRow>;
