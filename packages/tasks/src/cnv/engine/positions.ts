import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { ResourceReader, ResultHandle } from '@cellcloud/engine/tasks/kit';
import { readResourceText } from '../../_shared/engine/resources';

/**
 * Gene positions for CNV inference (shared data `gene_positions/`, see its README): the numbat
 * tables (symbol, chromosome, start, end; hg38 / hg19 / mm10 autosomes) and the copykat tables
 * (Ensembl id, symbol, chromosome, start, end[, cytoband]; hg38 / mm10). A dataset keyed by
 * Ensembl ids is matched by id first (copykat table), then by symbol (numbat table).
 * Only numbered chromosomes are kept: sex chromosomes, mitochondria and contigs are excluded
 * (docs/methods/cnv.md: the default gene file has the sex chromosomes removed).
 */
export type Genome = 'hg38' | 'hg19' | 'mm10';

export const POSITION_FILES: Record<Genome, { symbols: string; ids?: string }> = {
  hg38: {
    symbols: 'gene_positions/genes_hg38_numbat.tsv.gz',
    ids: 'gene_positions/genes_hg38_copykat.tsv.gz',
  },
  hg19: { symbols: 'gene_positions/genes_hg19_numbat.tsv.gz' },
  mm10: {
    symbols: 'gene_positions/genes_mm10_numbat.tsv.gz',
    ids: 'gene_positions/genes_mm10_copykat.tsv.gz',
  },
};
/** hg38 cytobands (copykat `band`, e.g. p36.33) give each human gene its arm. */
export const BAND_FILE = 'gene_positions/genes_hg38_copykat.tsv.gz';

export interface PositionTable {
  names: string[];
  ids: string[] | null;
  chrom: number[];
  start: number[];
  end: number[];
  band: string[] | null;
}

function chromNumber(raw: string): number {
  const s = raw.trim().replace(/^chr/i, '');
  return /^\d+$/.test(s) ? Number(s) : -1;
}

/** Parses a TSV (or CSV) position table with a header, or inferCNV's header-less `gene chr start end`. */
export function parsePositions(text: string, file: string): PositionTable {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0)
    throw new TaskError('cnv.positionsInvalid', `${file} is empty`, { file, detail: 'empty file' });
  const sep = lines[0].includes('\t') ? '\t' : ',';
  const head = lines[0].split(sep).map((h) => h.trim().toLowerCase());
  const hasHeader = head.some((h) => ['chromosome', 'chr', 'chrom', 'seqnames'].includes(h));
  let iName = 0;
  let iId = -1;
  let iChr = 1;
  let iStart = 2;
  let iEnd = 3;
  let iBand = -1;
  if (hasHeader) {
    const find = (...names: string[]) => head.findIndex((h) => names.includes(h));
    iName = find('gene_name', 'gene', 'symbol', 'gene_symbol', 'hgnc_symbol');
    iId = find('ensembl_gene_id', 'gene_id', 'ensembl');
    iChr = find('chromosome', 'chr', 'chrom', 'seqnames');
    iStart = find('start', 'start_position');
    iEnd = find('end', 'stop', 'end_position');
    iBand = find('band');
    if (iName < 0 && iId >= 0) iName = iId;
    if (iName < 0 || iChr < 0 || iStart < 0 || iEnd < 0) {
      throw new TaskError('cnv.positionsInvalid', `${file}: missing gene/chromosome/start/end columns`, {
        file,
        detail: 'columns gene, chromosome, start, end are needed',
      });
    }
  }
  const t: PositionTable = {
    names: [],
    ids: iId >= 0 ? [] : null,
    chrom: [],
    start: [],
    end: [],
    band: iBand >= 0 ? [] : null,
  };
  for (let i = hasHeader ? 1 : 0; i < lines.length; i++) {
    const f = lines[i].split(sep);
    const chr = chromNumber(f[iChr] ?? '');
    if (chr < 1) continue;
    const start = Number(f[iStart]);
    const end = Number(f[iEnd]);
    if (!Number.isFinite(start) || !Number.isFinite(end)) {
      throw new TaskError('cnv.positionsInvalid', `${file}: line ${i + 1} has no numeric start/end`, {
        file,
        detail: `line ${i + 1} has no numeric start/end`,
      });
    }
    t.names.push((f[iName] ?? '').trim());
    t.ids?.push((f[iId] ?? '').trim());
    t.chrom.push(chr);
    t.start.push(start);
    t.end.push(end);
    t.band?.push((f[iBand] ?? '').trim());
  }
  return t;
}

export interface GeneLayout {
  /** Dataset gene indices in genome order (chromosome, start, end). */
  genes: Int32Array;
  chrom: Int32Array;
  start: Float64Array;
  end: Float64Array;
  matched: number;
}

function firstIndex(keys: (string | undefined)[]): Map<string, number> {
  const m = new Map<string, number>();
  keys.forEach((k, i) => {
    if (k && !m.has(k)) m.set(k, i);
  });
  return m;
}

/** Positions of the dataset's genes: by Ensembl id in `idTable`, else by symbol (or id) in `table`. */
export function layoutGenes(
  result: Pick<ResultHandle, 'genes'>,
  table: PositionTable,
  idTable: PositionTable | null,
): GeneLayout {
  const byName = firstIndex(table.names);
  const byUpper = firstIndex(table.names.map((n) => n.toUpperCase()));
  const byId = idTable?.ids ? firstIndex(idTable.ids.map((s) => s.replace(/\.\d+$/, ''))) : null;
  const rows: { g: number; chrom: number; start: number; end: number }[] = [];
  const { ids, symbols } = result.genes;
  for (let g = 0; g < symbols.length; g++) {
    const id = (ids[g] ?? '').replace(/\.\d+$/, '');
    let hit: { chrom: number; start: number; end: number } | null = null;
    const j = byId?.get(id);
    if (j !== undefined && idTable)
      hit = { chrom: idTable.chrom[j], start: idTable.start[j], end: idTable.end[j] };
    else {
      const k = byName.get(symbols[g]) ?? byName.get(ids[g]) ?? byUpper.get((symbols[g] ?? '').toUpperCase());
      if (k !== undefined) hit = { chrom: table.chrom[k], start: table.start[k], end: table.end[k] };
    }
    if (hit) rows.push({ g, ...hit });
  }
  rows.sort((a, b) => a.chrom - b.chrom || a.start - b.start || a.end - b.end || a.g - b.g);
  return {
    genes: Int32Array.from(rows, (r) => r.g),
    chrom: Int32Array.from(rows, (r) => r.chrom),
    start: Float64Array.from(rows, (r) => r.start),
    end: Float64Array.from(rows, (r) => r.end),
    matched: rows.length,
  };
}

/**
 * Chromosome arms. Human: each chromosome's p/q boundary is placed, in the chosen assembly's
 * coordinates, where it best separates genes whose hg38 cytoband (copykat table) starts with p
 * from those starting with q (genes matched by symbol; the split maximises agreement). No
 * centromere table is shipped: the boundary is derived from the cytobands of the positions data.
 * Acrocentric chromosomes (13, 14, 15, 21, 22) have no expressed p-arm genes and get only q.
 * Mouse chromosomes are all telocentric, so an arm is the whole chromosome ("chr1" → "1").
 */
export interface ArmLayout {
  /** Arm label per gene of the layout ("1p", "19q", mouse "7"). */
  armOfGene: string[];
  arms: { arm: string; chromosome: string; nGenes: number }[];
  source: string;
  /** Derived p/q boundary per human chromosome (assembly coordinates), for the docs. */
  boundaries: Record<string, number>;
}

export function layoutArms(
  layout: GeneLayout,
  geneSymbols: readonly string[],
  genome: Genome | 'custom',
  bands: PositionTable | null,
): ArmLayout {
  const n = layout.genes.length;
  const armOfGene = new Array<string>(n);
  const boundaries: Record<string, number> = {};
  let source: string;
  if (genome === 'mm10' || !bands?.band) {
    for (let i = 0; i < n; i++) armOfGene[i] = String(layout.chrom[i]);
    source =
      genome === 'mm10'
        ? 'mouse chromosomes are telocentric: one arm per chromosome'
        : 'no cytobands: one arm per chromosome';
  } else {
    const armByName = new Map<string, 'p' | 'q'>();
    bands.names.forEach((nm, i) => {
      const b = bands.band![i];
      if ((b.startsWith('p') || b.startsWith('q')) && !armByName.has(nm))
        armByName.set(nm, b[0] as 'p' | 'q');
    });
    let i = 0;
    while (i < n) {
      let j = i;
      while (j < n && layout.chrom[j] === layout.chrom[i]) j++;
      // best split s in [i, j]: genes [i, s) are p, [s, j) are q
      let total = 0;
      for (let k = i; k < j; k++) if (armByName.get(geneSymbols[layout.genes[k]]) === 'q') total++;
      let best = i;
      let bestScore = total;
      let pBefore = 0;
      let qBefore = 0;
      for (let s = i + 1; s <= j; s++) {
        const a = armByName.get(geneSymbols[layout.genes[s - 1]]);
        if (a === 'p') pBefore++;
        else if (a === 'q') qBefore++;
        const score = pBefore + (total - qBefore);
        if (score > bestScore) {
          bestScore = score;
          best = s;
        }
      }
      const chr = layout.chrom[i];
      boundaries[`chr${chr}`] =
        best === i
          ? layout.start[i]
          : best === j
            ? layout.end[j - 1]
            : (layout.end[best - 1] + layout.start[best]) / 2;
      for (let k = i; k < j; k++) armOfGene[k] = `${chr}${k < best ? 'p' : 'q'}`;
      i = j;
    }
    source = `p/q boundary derived from hg38 cytobands (${BAND_FILE}, copykat band column) by gene symbol`;
  }
  const arms: ArmLayout['arms'] = [];
  for (let i = 0; i < n; i++) {
    const last = arms[arms.length - 1];
    if (last && last.arm === armOfGene[i]) last.nGenes++;
    else arms.push({ arm: armOfGene[i], chromosome: `chr${layout.chrom[i]}`, nGenes: 1 });
  }
  return { armOfGene, arms, source, boundaries };
}

const tableCache = new WeakMap<ResourceReader, Map<string, Promise<PositionTable>>>();

export function loadPositions(resources: ResourceReader, path: string): Promise<PositionTable> {
  let m = tableCache.get(resources);
  if (!m) tableCache.set(resources, (m = new Map()));
  let p = m.get(path);
  if (!p) {
    p = readResourceText(resources, path).then((text) => parsePositions(text, path));
    p.catch(() => m!.delete(path));
    m.set(path, p);
  }
  return p;
}
