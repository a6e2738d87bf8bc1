/// <reference lib="webworker" />
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import {
  decodeCategorical,
  decodeGeneChunk,
  decodeNumeric,
  geneByteRange,
  normalizeEmbedding,
  parseColourLengths,
  parseGeneIndex,
  parseGenes,
  quantisedPositionsDecoder,
  type GeneIndex,
  type NormalizedEmbedding,
} from './decode';
import { firstFrameSplatter } from '../viewer/firstFrame';
import type { EmbeddingResult, ObsColumn, WorkerEnvelope, WorkerReply, WorkerRequest } from './protocol';
import { ArtifactHttpError, createHttpByteSource, fingerprint, type ByteSource } from './rangeFetch';

/** Artifact Web Worker: fetches, decodes and indexes off the main thread; replies with transferables. */
let source: ByteSource | null = null;
let manifestP: Promise<ArtifactManifest> | null = null;
const indexes = new Map<string, Promise<GeneIndex>>();
const colourLengths = new Map<string, Promise<Uint32Array>>();

function need(): ByteSource {
  if (!source) throw new Error('artifact worker used before init');
  return source;
}

/**
 * The positions of an embedding download alone: every other artifact download (annotation
 * columns, genes, JSON) waits until their bytes are in, so the first paint does not share the link
 * (and, over loopback, the cores) with the colour columns asked for at the same time.
 */
let positionsInFlight: Promise<unknown> = Promise.resolve();
async function getAfterPositions(path: string, range?: { start: number; length: number }): Promise<ArrayBuffer> {
  await positionsInFlight;
  return need().get(path, range);
}

async function manifest(): Promise<ArtifactManifest> {
  manifestP ??= need()
    .fresh('manifest.json')
    .then((b) => {
      const text = new TextDecoder().decode(b);
      need().setVersion(fingerprint(text));
      // checked on the page (manifest.ts), which asks for nothing else before the check passed
      return JSON.parse(text) as ArtifactManifest;
    });
  return manifestP;
}

async function json(path: string): Promise<unknown> {
  await manifest(); // sets the cache version first
  return JSON.parse(new TextDecoder().decode(await getAfterPositions(path)));
}

async function geneIndex(layer: string): Promise<GeneIndex> {
  const m = await manifest();
  const l = m.layers.find((x) => x.name === layer);
  if (!l) throw new Error(`layer "${layer}" is not in this result (has: ${m.layers.map((x) => x.name).join(', ')})`);
  let p = indexes.get(layer);
  if (!p) {
    p = getAfterPositions(l.index).then((b) => parseGeneIndex(b, m.nGenes));
    indexes.set(layer, p);
  }
  return p;
}

/** Format 2: the colour-prefix lengths of a compact layer (null for a format-1 layer). */
async function colourLengthsOf(layer: string): Promise<Uint32Array | null> {
  const m = await manifest();
  const l = m.layers.find((x) => x.name === layer);
  if (!l?.compact) return null;
  const file = l.compact.colourLengths;
  let p = colourLengths.get(layer);
  if (!p) {
    p = getAfterPositions(file).then((b) => parseColourLengths(b, m.nGenes));
    colourLengths.set(layer, p);
  }
  return p;
}

async function handle(req: WorkerRequest): Promise<{ result: unknown; transfer: Transferable[] }> {
  switch (req.op) {
    case 'init':
      source = createHttpByteSource(req.baseUrl, req.token);
      manifestP = null;
      indexes.clear();
      colourLengths.clear();
      return { result: null, transfer: [] };
    case 'manifest':
      // refresh: read it again (a completed task added a column or a layout, server tasks/explorer-obs.ts)
      if (req.refresh) manifestP = null;
      return { result: await manifest(), transfer: [] };
    case 'embedding': {
      const m = await manifest();
      const e = m.embeddings.find((x) => x.name === req.name);
      if (!e) throw new Error(`embedding "${req.name}" is not in this result`);
      const dims = e.dims as 2 | 3;
      // the first frame (2-D), splatted piece by piece as the positions decode
      const first = req.frame && dims === 2 ? firstFrameSplatter(req.frame) : null;
      let emb: NormalizedEmbedding;
      if (e.quantised) {
        // format 2: decoded as the bytes arrive
        const decoder = quantisedPositionsDecoder(m.nCells, dims, e.quantised, first?.add);
        const done = need().stream(e.file, (b) => decoder.push(b));
        positionsInFlight = done.catch(() => undefined);
        await done;
        emb = decoder.finish();
      } else {
        const bytes = need().get(e.file);
        positionsInFlight = bytes.catch(() => undefined);
        emb = normalizeEmbedding(await bytes, m.nCells, dims);
        first?.add(emb.x, emb.y, 0, m.nCells);
      }
      const firstFrame = first?.image() ?? null;
      const result: EmbeddingResult = { ...emb, firstFrame };
      const transfer: Transferable[] = [emb.x.buffer, emb.y.buffer];
      if (emb.z) transfer.push(emb.z.buffer);
      if (firstFrame) transfer.push(firstFrame.pixels.buffer);
      return { result, transfer };
    }
    case 'obs': {
      const m = await manifest();
      const o = m.obs.find((x) => x.key === req.key);
      if (!o) throw new Error(`annotation "${req.key}" is not in this result`);
      const buf = await getAfterPositions(o.file);
      const col: ObsColumn =
        o.kind === 'categorical'
          ? { kind: 'categorical', key: o.key, labels: o.labels, codes: decodeCategorical(buf, o.dtype, m.nCells, o.labels.length) }
          : { kind: 'numeric', key: o.key, values: decodeNumeric(buf, m.nCells), min: o.min, max: o.max };
      return { result: col, transfer: [col.kind === 'categorical' ? col.codes.buffer : col.values.buffer] };
    }
    case 'genes': {
      const m = await manifest();
      const { ids, symbols } = parseGenes(await json(m.genes.file));
      return { result: { ids, symbols }, transfer: [] };
    }
    case 'gene': {
      const m = await manifest();
      const [idx, clen] = await Promise.all([geneIndex(req.layer), req.exact ? null : colourLengthsOf(req.layer)]);
      const full = geneByteRange(idx, req.gene);
      // colours only: the chunk's colour prefix (format 2), about 3 of its 7 bytes per non-zero
      const range = clen && full.length > 0 ? { start: full.start, length: clen[req.gene]! } : full;
      const dataFile = m.layers.find((x) => x.name === req.layer)!.data;
      const chunk = await getAfterPositions(dataFile, range);
      const dense = decodeGeneChunk(chunk, m.nCells);
      const transfer: Transferable[] = [dense.values.buffer];
      if (dense.nz) transfer.push(dense.nz.buffer);
      return { result: { ...dense, bytes: chunk.byteLength }, transfer };
    }
    case 'json':
      return { result: await json(req.path), transfer: [] };
  }
}

self.onmessage = (ev: MessageEvent<WorkerEnvelope>) => {
  const { id, req } = ev.data;
  handle(req).then(
    ({ result, transfer }) => (self as unknown as DedicatedWorkerGlobalScope).postMessage({ id, ok: true, result } satisfies WorkerReply, transfer),
    (err: unknown) =>
      self.postMessage({
        id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
        ...(err instanceof ArtifactHttpError ? { status: err.status } : {}),
      } satisfies WorkerReply),
  );
};
