import { artifactManifest, type ArtifactManifest, type DegRow } from '@cellcloud/contracts/artifacts';
import { csvToTable } from '@cellcloud/contracts/tasks/csv';
import { decodeCodes, decodeQuantisedPositions } from '@cellcloud/formats/artifacts-decode';
import type { Storage } from '../../storage/storage';
import { extraColumn, type ExtraObsSource } from '../extra-obs';
import type { FigureData, Level, Numeric } from './data';

/**
 * What the parent job hands the figures child (all storage keys): the result's explorer
 * artifacts, the saved levels (extra categorical columns), the saved DE comparisons and the
 * completed tasks with their tables and per-cell numeric columns.
 */
export interface FiguresSource {
  artifactsPrefix: string;
  extraLevels: (ExtraObsSource & { column: string })[];
  de: { name: string; key: string }[];
  tasks: {
    task: string;
    name: string;
    tables: { name: string; key: string }[];
    numeric: { key: string; fileKey: string }[];
  }[];
  /**
   * 2-D layouts computed on demand by the result's tasks (the layout task's t-SNE), drawn like the
   * analysis' own when it has none of that name (services/tasks/explorer-obs.ts embeddingsOf).
   */
  embeddings?: { name: string; key: string }[];
}

const dec = new TextDecoder();
const json = async (s: Storage, key: string) => JSON.parse(dec.decode(await s.getBytes(key))) as unknown;
const f32 = (b: Uint8Array) => {
  const out = new Float32Array(b.byteLength >> 2);
  new Uint8Array(out.buffer).set(b.subarray(0, out.length * 4));
  return out;
};
const SAMPLE_KEYS = ['Sample ID', 'sample', 'Sample', 'orig.ident'];
const EMBEDDING_ORDER = ['umap', 'tsne'];

/** Categorical values as a level (labels in first-seen order, `NA` last). */
function levelOf(key: string, values: readonly (string | number)[]): Level {
  const index = new Map<string, number>();
  const codes = new Uint32Array(values.length);
  values.forEach((v, c) => {
    const s = String(v);
    let k = index.get(s);
    if (k === undefined) index.set(s, (k = index.size));
    codes[c] = k;
  });
  return { key, labels: [...index.keys()], codes };
}

/** Row-major 2-D positions: float32 (artifact format 1) or 24-bit quantised (format 2). */
const positions = (bytes: Uint8Array, e: ArtifactManifest['embeddings'][number]) =>
  e.quantised ? decodeQuantisedPositions(bytes, 2, e.quantised.min, e.quantised.max) : f32(bytes);

export async function readFigureData(storage: Storage, src: FiguresSource): Promise<FigureData> {
  const p = src.artifactsPrefix;
  const m = artifactManifest.parse(await json(storage, `${p}manifest.json`));
  const embeddings: FigureData['embeddings'] = [];
  const computed = (src.embeddings ?? []).filter((e) => !m.embeddings.some((own) => own.name === e.name));
  const byOrder = (a: { name: string }, b: { name: string }) =>
    (EMBEDDING_ORDER.indexOf(a.name) + 1 || 99) - (EMBEDDING_ORDER.indexOf(b.name) + 1 || 99);
  for (const e of [...m.embeddings, ...computed].sort(byOrder)) {
    if (!EMBEDDING_ORDER.includes(e.name)) continue;
    if ('key' in e) embeddings.push({ name: e.name, values: f32(await storage.getBytes(e.key)) });
    else if (e.dims === 2)
      embeddings.push({ name: e.name, values: positions(await storage.getBytes(p + e.file), e) });
  }
  const levels: Level[] = [];
  const numeric: Numeric[] = [];
  for (const o of m.obs) {
    const bytes = await storage.getBytes(p + o.file);
    if (o.kind === 'categorical')
      levels.push({ key: o.key, labels: o.labels, codes: decodeCodes(bytes, o.dtype) });
    else numeric.push({ key: o.key, values: f32(bytes) });
  }
  levels.sort((a, b) => (a.key === 'cluster' ? -1 : b.key === 'cluster' ? 1 : 0));
  for (const s of src.extraLevels) {
    const col = await extraColumn(storage, s, m.nCells);
    if (col?.kind === 'categorical') levels.push(levelOf(s.column, col.values));
  }
  const markers: FigureData['markers'] = [];
  for (const mk of m.markers)
    markers.push({ groupBy: mk.groupBy, rows: (await json(storage, p + mk.file)) as DegRow[] });
  const de: FigureData['de'] = [];
  for (const d of src.de) de.push({ name: d.name, rows: (await json(storage, d.key)) as DegRow[] });
  const tasks: FigureData['tasks'] = [];
  for (const k of src.tasks) {
    const tables: FigureData['tasks'][number]['tables'] = {};
    for (const tb of k.tables) tables[tb.name] = csvToTable(dec.decode(await storage.getBytes(tb.key)));
    const cols: Numeric[] = [];
    for (const n of k.numeric) {
      const v = f32(await storage.getBytes(n.fileKey));
      if (v.length === m.nCells) cols.push({ key: n.key, values: v });
    }
    tasks.push({ task: k.task, name: k.name, tables, numeric: cols });
  }
  const sample = SAMPLE_KEYS.map((k) => levels.find((l) => l.key === k)).find(Boolean);
  return { nCells: m.nCells, embeddings, levels, numeric, sample, markers, de, tasks };
}
