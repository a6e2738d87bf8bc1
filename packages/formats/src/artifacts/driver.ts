/**
 * writeArtifacts and beginArtifacts: validate the input, write the genes, the expression layers
 * (gene-chunks.ts in format 1, compact.ts in format 2), the per-cell columns (obs.ts), embeddings,
 * markers and QC, then the manifest.
 */
import { type ArtifactManifest, artifactManifest, type DegRow } from '@cellcloud/contracts/artifacts';
import type { GeneBlocks } from '../cell-chunks';
import { FormatError } from '../errors';
import type { CellColumn, CountMatrix, GeneTable } from '../matrix';
import {
  type CompactWriter,
  quantisePositions,
  writeCompactFiles,
  writeCompactGeneBlockLayers,
  writeCompactLayerChunks,
} from './compact';
import { geneChunks, writeGeneBlockChunks, writeLayerChunks } from './gene-chunks';
import { encodeObsColumn, stems } from './obs';
import { type ArtifactSink, bytesOf } from './sink';

export interface ArtifactInput {
  engineVersion: string;
  species: string;
  genes: GeneTable;
  nCells: number;
  layers: { counts?: CountMatrix; normalized?: CountMatrix };
  /**
   * The layers read from gene blocks instead (the out-of-core engine, issue 33): the same files,
   * byte for byte, written a block of genes at a time. Either `layers` or these, not both.
   */
  geneLayers?: { counts?: GeneBlocks; normalized?: GeneBlocks };
  /** Row-major nCells × dims, dims 2 or 3; names like umap, tsne, umap3D. */
  embeddings?: Record<string, { dims: number; values: Float32Array }>;
  obs?: Record<string, CellColumn>;
  /** Marker table rows per grouping (e.g. { cluster: [...] }). */
  markers?: Record<string, DegRow[]>;
  qc?: unknown;
  /** The layouts the run left out by default and why (manifest `layoutsNotComputed`, docs/artifacts.md). */
  layoutsNotComputed?: ArtifactManifest['layoutsNotComputed'];
  /** Path of the .h5ad download relative to the result directory, when one was written. */
  h5ad?: string;
  /**
   * 2 (default): compact positions and expression chunks (docs/artifacts.md#format-2); 1: the
   * earlier float32 files, still read by every decoder (kept for tests of old results).
   */
  formatVersion?: 1 | 2;
}

const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

export async function writeArtifacts(input: ArtifactInput, sink: ArtifactSink): Promise<ArtifactManifest> {
  const artifacts = await beginArtifacts(input, sink);
  return artifacts.finish(input);
}

/** What `ArtifactsInProgress.finish` writes: per-cell columns, embeddings, markers, QC. */
export type ArtifactRest = Pick<
  ArtifactInput,
  'obs' | 'embeddings' | 'markers' | 'qc' | 'layoutsNotComputed'
>;

/** Explorer artifacts whose genes and expression layers are written. */
export interface ArtifactsInProgress {
  /** Writes the per-cell columns, embeddings, markers and QC, then the manifest. */
  finish(rest: ArtifactRest): Promise<ArtifactManifest>;
}

/**
 * writeArtifacts in two parts: the genes and the gene-major expression layers (the large part)
 * now — e.g. while the embeddings compute — and the rest with `finish`. The input's obs,
 * embeddings, markers and qc are not read here.
 */
export async function beginArtifacts(input: ArtifactInput, sink: ArtifactSink): Promise<ArtifactsInProgress> {
  const { nCells, genes } = input;
  const bad = (detail: string) =>
    new FormatError('write.invalid_input', { file: 'explorer artifacts', detail });
  if (genes.ids.length !== genes.symbols.length) throw bad('gene ids and symbols differ in length');
  await sink.write('genes.json', json({ ids: genes.ids, symbols: genes.symbols }));
  const version = input.formatVersion ?? 2;
  const layers = await writeLayers(input, sink, bad, version);
  return {
    async finish(rest) {
      const embeddings: ArtifactManifest['embeddings'] = [];
      const embNames = stems(Object.keys(rest.embeddings ?? {}));
      for (const [name, e] of Object.entries(rest.embeddings ?? {})) {
        if (e.dims < 2 || e.dims > 3)
          throw bad(`embedding "${name}" has ${e.dims} dimensions; the explorer takes 2 or 3`);
        if (e.values.length !== nCells * e.dims)
          throw bad(`embedding "${name}" is not ${nCells} × ${e.dims}`);
        if (version === 1) {
          const file = `embeddings/${embNames.get(name)}.f32`;
          await sink.write(file, bytesOf(e.values));
          embeddings.push({ name, dims: e.dims, file });
        } else {
          const file = `embeddings/${embNames.get(name)}.q24`;
          const { bytes, min, max } = quantisePositions(e.values, e.dims);
          await sink.write(file, bytes);
          embeddings.push({ name, dims: e.dims, file, quantised: { bits: 24, min, max } });
        }
      }
      const obs: ArtifactManifest['obs'] = [];
      const obsNames = stems(Object.keys(rest.obs ?? {}));
      for (const [key, col] of Object.entries(rest.obs ?? {})) {
        if (col.values.length !== nCells)
          throw bad(`obs column "${key}" has ${col.values.length} values for ${nCells} cells`);
        const { entry, bytes } = encodeObsColumn(key, col, obsNames.get(key)!);
        await sink.write(entry.file, bytes);
        obs.push(entry);
      }
      const markers: ArtifactManifest['markers'] = [];
      const markerNames = stems(Object.keys(rest.markers ?? {}));
      for (const [groupBy, rows] of Object.entries(rest.markers ?? {})) {
        const file = `markers/${markerNames.get(groupBy)}.json`;
        await sink.write(file, json(rows));
        markers.push({ groupBy, file });
      }
      if (rest.qc !== undefined) await sink.write('qc.json', json(rest.qc));
      const manifest = artifactManifest.parse({
        formatVersion: version,
        engineVersion: input.engineVersion,
        nCells,
        nGenes: genes.ids.length,
        species: input.species,
        embeddings,
        obs,
        genes: { file: 'genes.json', count: genes.ids.length },
        layers,
        markers,
        ...(rest.qc !== undefined ? { qc: 'qc.json' } : {}),
        ...(input.h5ad ? { h5ad: input.h5ad } : {}),
        ...(rest.layoutsNotComputed ? { layoutsNotComputed: rest.layoutsNotComputed } : {}),
      });
      await sink.write('manifest.json', json(manifest));
      return manifest;
    },
  };
}

/**
 * The gene-major expression layers (expr/<layer>.bin + .idx, and .clen in format 2); layers of one
 * sparsity layout in one pass.
 */
async function writeLayers(
  input: ArtifactInput,
  sink: ArtifactSink,
  bad: (detail: string) => Error,
  version: 1 | 2,
): Promise<ArtifactManifest['layers']> {
  const { nCells, genes } = input;
  if (input.geneLayers) return writeGeneLayers(input, input.geneLayers, sink, bad, version);
  const named = (['counts', 'normalized'] as const).flatMap((name) => {
    const m = input.layers[name];
    if (!m) return [];
    if (m.nCells !== nCells || m.nGenes !== genes.ids.length)
      throw bad(`layer "${name}" is ${m.nGenes} × ${m.nCells}, expected ${genes.ids.length} × ${nCells}`);
    return [{ name, m }];
  });
  const groups: (typeof named)[] = [];
  for (const l of named) {
    const same = groups.find((g) => g[0]!.m.indices === l.m.indices && g[0]!.m.indptr === l.m.indptr);
    if (same && (sink.open || version === 2)) same.push(l);
    else groups.push([l]);
  }
  const open = sink.open?.bind(sink);
  for (const group of groups) {
    if (version === 2) {
      const files = open ? await Promise.all(group.map((l) => open(`expr/${l.name}.bin`))) : [];
      let writers: CompactWriter[];
      try {
        writers = await writeCompactLayerChunks(
          group.map((l) => l.m),
          group.map((_, i) => files[i]),
          Math.floor((1 << 22) / group.length),
        );
      } finally {
        await Promise.all(files.map((f) => f.close()));
      }
      for (const [i, { name }] of group.entries()) await writeCompactFiles(sink, name, writers[i]!, !open);
      continue;
    }
    let index: Float64Array;
    if (open) {
      const files = await Promise.all(group.map((l) => open(`expr/${l.name}.bin`)));
      try {
        // the blocks of all the group's layers are in memory at once: ~32 MB in all
        index = await writeLayerChunks(
          group.map((l) => l.m),
          files,
          Math.floor((1 << 22) / group.length),
        );
      } finally {
        await Promise.all(files.map((f) => f.close()));
      }
    } else {
      const chunks = geneChunks(group[0]!.m);
      await sink.write(`expr/${group[0]!.name}.bin`, chunks.bin);
      index = chunks.index;
    }
    for (const { name } of group) await sink.write(`expr/${name}.idx`, bytesOf(index));
  }
  return named.map(({ name, m }) => layerEntry(name, version, m.indptr[m.nCells]!));
}

const layerEntry = (
  name: 'counts' | 'normalized',
  version: 1 | 2,
  nnz: number,
): ArtifactManifest['layers'][number] => ({
  name,
  data: `expr/${name}.bin`,
  index: `expr/${name}.idx`,
  ...(version === 2 ? { compact: { colourLengths: `expr/${name}.clen` }, nnz } : {}),
});

/** writeLayers from gene blocks (ArtifactInput.geneLayers): one layer after the other. */
async function writeGeneLayers(
  input: ArtifactInput,
  geneLayers: NonNullable<ArtifactInput['geneLayers']>,
  sink: ArtifactSink,
  bad: (detail: string) => Error,
  version: 1 | 2,
): Promise<ArtifactManifest['layers']> {
  const { nCells, genes } = input;
  if (input.layers.counts || input.layers.normalized) throw bad('both layers and gene-block layers given');
  const names = (['counts', 'normalized'] as const).filter((name) => geneLayers[name]);
  for (const name of names) {
    const m = geneLayers[name]!;
    if (m.nCells !== nCells || m.nGenes !== genes.ids.length)
      throw bad(`layer "${name}" is ${m.nGenes} × ${m.nCells}, expected ${genes.ids.length} × ${nCells}`);
  }
  if (version === 2) {
    // the layers side by side, block by block (the normalized view can reuse the counts' block):
    // blocks of 2M values, each layer's block and compact bytes (≤ 11 B per value) ≈ 40 MB
    const open = sink.open?.bind(sink);
    const files = open ? await Promise.all(names.map((name) => open(`expr/${name}.bin`))) : [];
    let writers: CompactWriter[];
    try {
      writers = await writeCompactGeneBlockLayers(
        names.map((name) => geneLayers[name]!),
        names.map((_, i) => files[i]),
        1 << 21,
      );
    } finally {
      await Promise.all(files.map((f) => f.close()));
    }
    for (const [i, name] of names.entries()) await writeCompactFiles(sink, name, writers[i]!, !open);
    return names.map((name) =>
      layerEntry(
        name,
        version,
        geneLayers[name]!.geneNnz.reduce((a, b) => a + b, 0),
      ),
    );
  }
  for (const name of names) {
    const m = geneLayers[name]!;
    const file = sink.open ? await sink.open(`expr/${name}.bin`) : undefined;
    let written: { index: Float64Array; bin?: Uint8Array };
    try {
      // blocks of 2M values: the block read (with the views it goes through) and the bytes written ≈ 64 MB
      written = await writeGeneBlockChunks(m, file, 1 << 21);
    } finally {
      await file?.close();
    }
    if (written.bin) await sink.write(`expr/${name}.bin`, written.bin);
    await sink.write(`expr/${name}.idx`, bytesOf(written.index));
  }
  return names.map((name) =>
    layerEntry(
      name,
      version,
      geneLayers[name]!.geneNnz.reduce((a, b) => a + b, 0),
    ),
  );
}
