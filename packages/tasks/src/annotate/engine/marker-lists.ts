import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { ResourceReader } from '@cellcloud/engine/tasks/kit';
import type { MarkerType } from './marker-score';
import { readResourceText } from '../../_shared/engine/resources';

/** Marker list resources (shared data `annotation_refs/markers/`). */
export const MARKER_FILES = {
  cellmarker: {
    human: 'annotation_refs/markers/CellMarker_Human_cell_markers.txt.gz',
    mouse: 'annotation_refs/markers/CellMarker_Mouse_cell_markers.txt.gz',
  },
  panglaodb: 'annotation_refs/markers/enrichr_PanglaoDB_Augmented_2021.gmt.gz',
  azimuth: 'annotation_refs/markers/enrichr_Azimuth_Cell_Types_2021.gmt.gz',
} as const;

const BLOOD = /blood|pbmc|leuko|leuco/i;

/** True when a CellMarker `tissueType` matches the user's tissue (blood/PBMC → any "blood" tissue). */
export function tissueMatches(fileTissue: string, userTissue: string): boolean {
  const f = fileTissue.toLowerCase();
  const u = userTissue.trim().toLowerCase();
  if (!u) return false;
  if (BLOOD.test(u)) return /blood/.test(f);
  return f === u || f.includes(u) || (u.includes(f) && f.length >= 4);
}

function splitGenes(s: string): string[] {
  return s
    .replace(/[[\]]/g, '')
    .split(/[,;]/)
    .map((g) => g.trim())
    .filter((g) => g && g !== 'NA' && !/\s/.test(g));
}

/** CellMarker 1.0 rows of the species (normal cells) whose tissue matches; types merged by cellName. */
export function parseCellMarker(text: string, species: 'human' | 'mouse', tissue: string): MarkerType[] {
  const lines = text.split(/\r?\n/);
  const head = lines[0]!.split('\t');
  const col = (n: string) => head.indexOf(n);
  const [iSp, iTi, iCa, iName, iSym] = [
    col('speciesType'),
    col('tissueType'),
    col('cancerType'),
    col('cellName'),
    col('geneSymbol'),
  ];
  const want = species === 'human' ? 'human' : 'mouse';
  const types = new Map<string, Set<string>>();
  for (let i = 1; i < lines.length; i++) {
    const f = lines[i]!.split('\t');
    if (f.length < head.length) continue;
    if (f[iSp]!.toLowerCase() !== want || f[iCa] !== 'Normal' || !tissueMatches(f[iTi]!, tissue)) continue;
    const name = f[iName]!.trim();
    let set = types.get(name);
    if (!set) types.set(name, (set = new Set()));
    for (const g of splitGenes(f[iSym]!)) set.add(g);
  }
  return [...types.entries()].map(([name, s]) => ({ name, positive: [...s] }));
}

/** Enrichr GMT (`name<TAB><TAB>gene<TAB>gene…`); Cell Ontology ids are dropped from names. */
export function parseGmt(text: string): MarkerType[] {
  const out: MarkerType[] = [];
  for (const line of text.split(/\r?\n/)) {
    const f = line.split('\t');
    if (f.length < 3) continue;
    const name = f[0]!.replace(/\s+(CL|UBERON)\d+$/, '').trim();
    out.push({
      name,
      positive: f
        .slice(1)
        .map((g) => g.trim())
        .filter(Boolean),
    });
  }
  const merged = new Map<string, Set<string>>();
  for (const t of out) {
    let s = merged.get(t.name);
    if (!s) merged.set(t.name, (s = new Set()));
    t.positive.forEach((g) => s.add(g));
  }
  return [...merged.entries()].map(([name, s]) => ({ name, positive: [...s] }));
}

/**
 * A user marker file: CSV/TSV with two columns `cell type, gene` (one row per gene; several genes
 * in one field separated by commas/semicolons are split too), optional header; a gene prefixed with
 * "-" is a negative marker.
 */
export function parseMarkerUpload(bytes: Uint8Array): MarkerType[] {
  const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  if (!lines.length)
    throw new TaskError('annotate.markerFile', 'The marker file is empty.', { detail: 'empty file' });
  const sep = lines[0]!.includes('\t') ? '\t' : ',';
  const types = new Map<string, { pos: Set<string>; neg: Set<string> }>();
  lines.forEach((line, i) => {
    const cut = line.indexOf(sep);
    if (cut <= 0) {
      throw new TaskError('annotate.markerFile', `Line ${i + 1} has no cell type and gene.`, {
        detail: `line ${i + 1} has fewer than two columns`,
      });
    }
    const name = line.slice(0, cut).replace(/^"|"$/g, '').trim();
    const genes = line.slice(cut + 1).replace(/"/g, '');
    if (i === 0 && /^(cell.?type|celltype|type|label|name)$/i.test(name)) return;
    let t = types.get(name);
    if (!t) types.set(name, (t = { pos: new Set(), neg: new Set() }));
    for (const g of genes
      .split(/[,;\t]/)
      .map((x) => x.trim())
      .filter(Boolean)) {
      if (g.startsWith('-')) t.neg.add(g.slice(1));
      else t.pos.add(g);
    }
  });
  if (!types.size)
    throw new TaskError('annotate.markerFile', 'The marker file has no rows.', { detail: 'no rows' });
  return [...types.entries()].map(([name, t]) => ({ name, positive: [...t.pos], negative: [...t.neg] }));
}

export async function loadMarkerTypes(
  resources: ResourceReader,
  source: 'cellmarker' | 'panglaodb' | 'azimuth',
  species: 'human' | 'mouse',
  tissue: string,
): Promise<MarkerType[]> {
  if (source === 'cellmarker') {
    return parseCellMarker(
      await readResourceText(resources, MARKER_FILES.cellmarker[species]),
      species,
      tissue,
    );
  }
  return parseGmt(await readResourceText(resources, MARKER_FILES[source]));
}
