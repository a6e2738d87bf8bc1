import type { z } from 'zod';
import {
  decodeCodes,
  decodeFloat32,
  decodeQuantisedPositions,
  decodeGeneChunk,
  decodeGeneIndex,
  geneByteRange,
} from '@cellcloud/formats/artifacts-decode';
import type {
  EmbeddingAnswer,
  observationAnnotationAnswer,
  observationDisplayAnswer,
  observationGeneAnswer,
} from '@cellcloud/contracts/explore-spec-calls';
import type { DegRow } from '@cellcloud/contracts/artifacts';
import type { AppContext, AuthUser } from '../../context';
import { AppError } from '../../errors';
import { artifactPrefix } from './results';
import { manifestOf } from './subsets';

/**
 * The docs/product/api.md#dataset-calls dataset calls (contracts/explore-spec-calls.ts) over the same stored artifacts and
 * the same ownership check (`artifactPrefix`: another user's id → 404) as the artifact reads.
 */
async function opened(ctx: AppContext, user: AuthUser, id: string) {
  const prefix = await artifactPrefix(ctx, user, id);
  return { prefix, manifest: await manifestOf(ctx, prefix) };
}

const json = (b: Uint8Array): unknown => JSON.parse(new TextDecoder().decode(b));

export async function embeddingOf(
  ctx: AppContext,
  user: AuthUser,
  id: string,
  name: string | undefined,
): Promise<{ answer: () => EmbeddingAnswer; bytes: Uint8Array }> {
  const { prefix, manifest } = await opened(ctx, user, id);
  const e = name
    ? manifest.embeddings.find((x) => x.name === name)
    : (manifest.embeddings.find((x) => x.name === 'umap') ?? manifest.embeddings[0]);
  if (!e) throw new AppError('NOT_FOUND', { key: name ?? '' }, 'explore.annotation.notFound');
  const stored = await ctx.storage.getBytes(prefix + e.file);
  // the API answers float32 coordinates whatever the artifact format (format 2 stores 24-bit positions)
  const values = e.quantised
    ? decodeQuantisedPositions(stored, e.dims, e.quantised.min, e.quantised.max)
    : decodeFloat32(stored);
  const bytes = e.quantised ? new Uint8Array(values.buffer, values.byteOffset, values.byteLength) : stored;
  return {
    bytes,
    answer: () => ({
      name: e.name,
      dims: e.dims,
      nCells: manifest.nCells,
      coordinates: Array.from(values),
    }),
  };
}

export async function observationGene(
  ctx: AppContext,
  user: AuthUser,
  id: string,
  gene: string,
  layerName: 'normalized' | 'counts',
): Promise<z.infer<typeof observationGeneAnswer>> {
  const { prefix, manifest } = await opened(ctx, user, id);
  const layer = manifest.layers.find((l) => l.name === layerName);
  if (!layer) throw new AppError('NOT_FOUND', { key: layerName }, 'explore.annotation.notFound');
  const genes = json(await ctx.storage.getBytes(prefix + manifest.genes.file)) as {
    ids: string[];
    symbols: string[];
  };
  let g = genes.symbols.indexOf(gene);
  if (g < 0) g = genes.ids.indexOf(gene);
  if (g < 0) {
    const lower = gene.toLowerCase();
    g = genes.symbols.findIndex((s) => s.toLowerCase() === lower);
  }
  if (g < 0) throw new AppError('NOT_FOUND', { key: gene }, 'explore.gene.notFound');
  const index = decodeGeneIndex(await ctx.storage.getBytes(prefix + layer.index));
  const r = geneByteRange(index, g);
  const chunk =
    r.length > 0
      ? decodeGeneChunk(
          await toBytes(
            await ctx.storage.get(prefix + layer.data, { start: r.offset, end: r.offset + r.length - 1 }),
          ),
        )
      : { cells: new Uint32Array(0), values: new Float32Array(0) };
  return {
    gene,
    symbol: genes.symbols[g]!,
    id: genes.ids[g]!,
    layer: layerName,
    nCells: manifest.nCells,
    cells: Array.from(chunk.cells),
    values: Array.from(chunk.values),
  };
}

async function toBytes(s: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of s) parts.push(c);
  return Buffer.concat(parts);
}

export async function observationDisplay(
  ctx: AppContext,
  user: AuthUser,
  id: string,
): Promise<z.infer<typeof observationDisplayAnswer>> {
  const { prefix, manifest } = await opened(ctx, user, id);
  const levels = [];
  for (const o of manifest.obs) {
    if (o.kind === 'numeric') levels.push({ kind: 'numeric' as const, key: o.key, min: o.min, max: o.max });
    else {
      const counts = new Array<number>(o.labels.length).fill(0);
      for (const c of decodeCodes(await ctx.storage.getBytes(prefix + o.file), o.dtype))
        counts[c] = (counts[c] ?? 0) + 1;
      levels.push({ kind: 'categorical' as const, key: o.key, labels: o.labels, counts });
    }
  }
  return {
    nCells: manifest.nCells,
    levels,
    embeddings: manifest.embeddings.map((e) => ({ name: e.name, dims: e.dims })),
  };
}

export async function observationAnnotation(
  ctx: AppContext,
  user: AuthUser,
  id: string,
  key: string,
): Promise<{ answer: () => z.infer<typeof observationAnnotationAnswer>; bytes: Uint8Array }> {
  const { prefix, manifest } = await opened(ctx, user, id);
  const o = manifest.obs.find((x) => x.key === key);
  if (!o) throw new AppError('NOT_FOUND', { key }, 'explore.annotation.notFound');
  const bytes = await ctx.storage.getBytes(prefix + o.file);
  return {
    bytes,
    answer: () =>
      o.kind === 'categorical'
        ? { kind: 'categorical', key, labels: o.labels, codes: Array.from(decodeCodes(bytes, o.dtype)) }
        : { kind: 'numeric', key, values: Array.from(decodeFloat32(bytes)) },
  };
}

export async function differentialExpression(
  ctx: AppContext,
  user: AuthUser,
  id: string,
  groupBy: string,
): Promise<{ groupBy: string; rows: DegRow[] }> {
  const { prefix, manifest } = await opened(ctx, user, id);
  const m = manifest.markers.find((x) => x.groupBy === groupBy);
  if (!m) throw new AppError('NOT_FOUND', { key: groupBy }, 'explore.annotation.notFound');
  return { groupBy, rows: json(await ctx.storage.getBytes(prefix + m.file)) as DegRow[] };
}
