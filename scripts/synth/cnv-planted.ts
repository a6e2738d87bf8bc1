/**
 * Synthetic tumour dataset with planted arm-level copy-number events (issue 17 tests and
 * `npm run bench:cnv`). Run directly to write a 10x folder + labels.csv for the CLI:
 *   npx tsx scripts/synth/cnv-planted.ts <outDir> [cellsPerType] [seed] [hg38|mm10]
 *   npx cellcloud analyze <outDir>/10x --out <outDir>/result
 *   npx cellcloud task cnv <outDir>/result --obs <outDir>/labels.csv --groupby cell_type \
 *       --reference normal_T,normal_M --out <outDir>/cnv
 *
 * Genes: every `geneStep`-th autosomal gene of a position table (hg38: the copykat table, whose
 * cytoband gives each gene's arm; mm10: the numbat table, arm = whole chromosome since mouse
 * chromosomes are telocentric). Expression: per gene a base mean lognormal(−0.3, 1.1) (× meanScale), per cell a
 * library factor lognormal(0, 0.3); counts Poisson(base · library · copy ratio), copy ratio 0.5
 * for a planted loss and 1.5 for a gain (one copy lost / gained out of two). Cell types:
 * two references `normal_T`, `normal_M` (no event; normal_M also has 150 type-specific genes ×4
 * so references differ), and tumours `tumour_A`, `tumour_B` with the events of PLANTED; samples
 * S1 / S2 alternate.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { Random } from '../../packages/engine/src/methods/random';

export interface PlantedEvent {
  type: string;
  arm: string;
  kind: 'gain' | 'loss';
}

export const PLANTED: Record<'hg38' | 'mm10', PlantedEvent[]> = {
  hg38: [
    { type: 'tumour_A', arm: '1p', kind: 'loss' },
    { type: 'tumour_A', arm: '7p', kind: 'gain' },
    { type: 'tumour_A', arm: '7q', kind: 'gain' },
    { type: 'tumour_A', arm: '19q', kind: 'loss' },
    { type: 'tumour_B', arm: '3p', kind: 'loss' },
    { type: 'tumour_B', arm: '5q', kind: 'gain' },
    { type: 'tumour_B', arm: '13q', kind: 'loss' },
    { type: 'tumour_B', arm: '20q', kind: 'gain' },
  ],
  mm10: [
    { type: 'tumour_A', arm: '4', kind: 'loss' },
    { type: 'tumour_A', arm: '11', kind: 'gain' },
    { type: 'tumour_B', arm: '6', kind: 'gain' },
    { type: 'tumour_B', arm: '14', kind: 'loss' },
  ],
};

export interface PlantedData {
  counts: CountMatrix;
  genes: { ids: string[]; symbols: string[] };
  barcodes: string[];
  cellType: string[];
  sample: string[];
  /** Arm of each generated gene (as the table says). */
  geneArm: string[];
  events: PlantedEvent[];
}

interface Row {
  name: string;
  chrom: number;
  arm: string;
}

/** Genes with an arm from a position table's text (copykat with band, or numbat without). */
export function plantedGenes(tableText: string, genome: 'hg38' | 'mm10', geneStep: number): Row[] {
  const lines = tableText.split('\n').filter(Boolean);
  const head = lines[0].split('\t');
  const iName = head.indexOf('gene_name');
  const iChr = head.indexOf('chromosome');
  const iBand = head.indexOf('band');
  const seen = new Set<string>();
  const rows: Row[] = [];
  for (const l of lines.slice(1)) {
    const f = l.split('\t');
    const chr = /^chr(\d+)$/.exec(f[iChr])?.[1];
    const name = f[iName];
    if (!chr || !name || seen.has(name)) continue;
    if (genome === 'hg38' && !/^[pq]/.test(f[iBand] ?? '')) continue;
    seen.add(name);
    rows.push({ name, chrom: Number(chr), arm: genome === 'hg38' ? `${chr}${f[iBand][0]}` : chr });
  }
  return rows.filter((_, i) => i % geneStep === 0);
}

export function cnvPlantedData(
  genesIn: Row[],
  opts: { cellsPerType?: number; seed?: number; genome?: 'hg38' | 'mm10'; meanScale?: number } = {},
): PlantedData {
  const per = opts.cellsPerType ?? 150;
  const genome = opts.genome ?? 'hg38';
  const rng = new Random(opts.seed ?? 7);
  const events = PLANTED[genome];
  const types = ['normal_T', 'normal_M', 'tumour_A', 'tumour_B'];
  const G = genesIn.length;
  const scale = opts.meanScale ?? 1;
  const base = Float64Array.from({ length: G }, () => scale * Math.exp(-0.3 + 1.1 * rng.normal()));
  const mSpecific = new Set<number>();
  while (mSpecific.size < Math.min(150, G)) mSpecific.add(rng.int(G));
  const ratio = new Map<string, Float64Array>();
  for (const t of types) {
    const r = new Float64Array(G).fill(1);
    for (const e of events.filter((x) => x.type === t)) {
      genesIn.forEach((g, i) => {
        if (g.arm === e.arm) r[i] = e.kind === 'gain' ? 1.5 : 0.5;
      });
    }
    if (t === 'normal_M') for (const i of mSpecific) r[i] *= 4;
    ratio.set(t, r);
  }
  const n = per * types.length;
  const indptr = new Float64Array(n + 1);
  // growable typed buffers (plain arrays would need 16 B per non-zero at 50k cells)
  let idx = new Uint32Array(1 << 20);
  let val = new Float32Array(1 << 20);
  let nnz = 0;
  const cellType: string[] = [];
  const sample: string[] = [];
  const barcodes: string[] = [];
  for (let c = 0; c < n; c++) {
    const t = types[Math.floor(c / per)];
    const lib = Math.exp(0.3 * rng.normal());
    const r = ratio.get(t)!;
    for (let g = 0; g < G; g++) {
      const k = rng.poisson(base[g] * lib * r[g]);
      if (k > 0) {
        if (nnz === idx.length) {
          const i2 = new Uint32Array(idx.length * 2);
          i2.set(idx);
          idx = i2;
          const v2 = new Float32Array(val.length * 2);
          v2.set(val);
          val = v2;
        }
        idx[nnz] = g;
        val[nnz++] = k;
      }
    }
    indptr[c + 1] = nnz;
    cellType.push(t);
    sample.push(c % 2 === 0 ? 'S1' : 'S2');
    barcodes.push(`cell${String(c).padStart(5, '0')}-${t}`);
  }
  const symbols = genesIn.map((g) => g.name);
  return {
    counts: { nGenes: G, nCells: n, indptr, indices: idx.slice(0, nnz), data: val.slice(0, nnz) },
    genes: { ids: symbols.slice(), symbols },
    barcodes,
    cellType,
    sample,
    geneArm: genesIn.map((g) => g.arm),
    events,
  };
}

export const PLANTED_TABLES = {
  hg38: 'gene_positions/genes_hg38_copykat.tsv.gz',
  mm10: 'gene_positions/genes_mm10_numbat.tsv.gz',
};

/** The generator's genes read from the shared data folder. */
export function readPlantedGenes(
  sharedDataDir: string,
  genome: 'hg38' | 'mm10',
  geneStep = genome === 'hg38' ? 8 : 5,
): Row[] {
  const text = gunzipSync(readFileSync(path.join(sharedDataDir, PLANTED_TABLES[genome]))).toString('utf8');
  return plantedGenes(text, genome, geneStep);
}

async function main() {
  const [outDir, perArg, seedArg, genomeArg] = process.argv.slice(2);
  if (!outDir) {
    console.error('usage: npx tsx scripts/synth/cnv-planted.ts <outDir> [cellsPerType] [seed] [hg38|mm10]');
    process.exit(2);
  }
  const genome = genomeArg === 'mm10' ? 'mm10' : 'hg38';
  const shared =
    process.env.CELLCLOUD_SHARED_DATA ?? path.resolve(import.meta.dirname, '../../../shared/data');
  const d = cnvPlantedData(readPlantedGenes(shared, genome), {
    cellsPerType: Number(perArg ?? 150),
    seed: Number(seedArg ?? 7),
    genome,
  });
  const { write10xMtx } = await import('../../packages/formats/src/write-10x-mtx');
  const out = write10xMtx(d.counts, d.genes, d.barcodes, { gzip: false });
  mkdirSync(path.join(outDir, '10x'), { recursive: true });
  for (const [name, bytes] of Object.entries(out))
    writeFileSync(path.join(outDir, '10x', name), bytes as Uint8Array);
  writeFileSync(
    path.join(outDir, 'labels.csv'),
    'barcode,cell_type,Sample ID\n' +
      d.barcodes.map((b, i) => `${b},${d.cellType[i]},${d.sample[i]}`).join('\n') +
      '\n',
  );
  writeFileSync(path.join(outDir, 'planted.json'), JSON.stringify(d.events, null, 2));
  console.log(
    `${d.counts.nCells} cells × ${d.counts.nGenes} genes, events: ${d.events.map((e) => `${e.type} ${e.arm} ${e.kind}`).join('; ')}`,
  );
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) await main();
