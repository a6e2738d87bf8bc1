/**
 * A CELLxGENE-schema h5ad of N cells written by streaming, for the public ingest at atlas size
 * (issue 33; the schema rules are apps/server/src/services/public-datasets/ingest.ts, the small
 * fixture apps/server/test/support/cellxgene.ts). X holds raw integer counts (CSR cells × genes),
 * obs the schema's columns with ontology ids (cell_type, donor_id, tissue, disease, assay,
 * development_stage, organism), var Ensembl ids with `feature_name`.
 *
 *   npx tsx scripts/synth/cellxgene.ts <cells> [file] [genesPerCell]
 *
 * Each cell's row is a pure function of its index (its own seeded generator): 10 cell types, each
 * with 30 marker genes of higher counts, and background genes at geometric gaps (≈ genesPerCell
 * detected genes, 800 by default). The writer reads X's values, then its indices, in consecutive
 * ranges (beginH5adRanges), so the rows are generated again for each pass: memory is the indptr
 * (8 B per cell), the obs columns and one compressed chunk, never the non-zeros.
 * `ensureCellxgene` caches the file by size under the temporary folder.
 */
import { closeSync, existsSync, openSync, renameSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beginH5adRanges, type CsrRanges } from '@cellcloud/formats/write-h5ad';

const GENES = 20_000;
const TYPES = [
  ['naive thymus-derived CD4-positive, alpha-beta T cell', 'CL:0000895'],
  ['CD8-positive, alpha-beta T cell', 'CL:0000625'],
  ['CD14-positive monocyte', 'CL:0001054'],
  ['B cell', 'CL:0000236'],
  ['natural killer cell', 'CL:0000623'],
  ['dendritic cell', 'CL:0000451'],
  ['platelet', 'CL:0000233'],
  ['CD16-positive monocyte', 'CL:0002396'],
  ['memory CD4-positive, alpha-beta T cell', 'CL:0000897'],
  ['plasma cell', 'CL:0000786'],
] as const;
const MARKERS = 30;
const DONOR_CELLS = 50_000;

/** mulberry32 seeded by the cell index: the row of a cell is the same on every pass. */
function rngOf(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cell j's genes (increasing) and counts into the buffers; returns the row's length. */
function row(j: number, meanGap: number, idx: Int32Array, val: Float32Array): number {
  const r = rngOf(Math.imul(j + 1, 0x9e3779b1));
  const m0 = 1000 + (j % TYPES.length) * MARKERS;
  let n = 0;
  let markers = false;
  const putMarkers = () => {
    for (let m = m0; m < m0 + MARKERS; m++) {
      idx[n] = m;
      val[n++] = 2 + Math.floor(r() * 10);
    }
    markers = true;
  };
  for (let g = Math.floor(r() * meanGap); g < GENES; g += 1 + Math.floor(-Math.log(1 - r()) * meanGap)) {
    if (!markers && g >= m0) putMarkers();
    if (g >= m0 && g < m0 + MARKERS) continue;
    idx[n] = g;
    val[n++] = r() < 0.75 ? 1 : 2 + Math.floor(r() * 3);
  }
  if (!markers) putMarkers();
  return n;
}

/** X as CsrRanges, generated row by row in consecutive ranges. */
function ranges(cells: number, genesPerCell: number): CsrRanges {
  const meanGap = GENES / genesPerCell;
  const idx = new Int32Array(GENES);
  const val = new Float32Array(GENES);
  const indptr = new Float64Array(cells + 1);
  for (let j = 0; j < cells; j++) indptr[j + 1] = indptr[j]! + row(j, meanGap, idx, val);
  const nnz = indptr[cells]!;
  // the cursor: the cell whose row is in idx/val
  let cell = -1;
  const read = <T extends Int32Array | Float32Array>(out: T, src: () => T, s: number, e: number): T => {
    let j = cell >= 0 && indptr[cell]! <= s ? cell : 0;
    while (indptr[j + 1]! <= s) j++;
    for (let p = s; p < e;) {
      if (j !== cell) {
        row(j, meanGap, idx, val);
        cell = j;
      }
      const a = p - indptr[j]!;
      const b = Math.min(e, indptr[j + 1]!) - indptr[j]!;
      out.set(src().subarray(a, b), p - s);
      p += b - a;
      j++;
    }
    return out;
  };
  return {
    nCells: cells,
    nGenes: GENES,
    nnz,
    data: (s, e) => read(new Float32Array(e - s), () => val, s, e),
    indices: (s, e) => read(new Int32Array(e - s), () => idx, s, e),
    indptr: () => indptr,
  };
}

/** Writes the file; returns its non-zeros. */
export async function writeCellxgene(file: string, cells: number, genesPerCell = 800): Promise<number> {
  const counts = ranges(cells, genesPerCell);
  const barcodes = Array.from({ length: cells }, (_, j) => `cell${j + 1}`);
  const ids = Array.from({ length: GENES }, (_, g) => `ENSG${String(g + 1).padStart(11, '0')}`);
  const symbols = Array.from({ length: GENES }, (_, g) => `GENE${g + 1}`);
  const tmp = `${file}.part`;
  const fd = openSync(tmp, 'w');
  try {
    const sink = {
      write: async (bytes: Uint8Array, position: number) => {
        for (let done = 0; done < bytes.length;)
          done += writeSync(fd, bytes, done, bytes.length - done, position + done);
      },
    };
    const h5 = await beginH5adRanges({ counts, genes: { ids, symbols }, barcodes, compression: 1 }, sink);
    const col = (f: (j: number) => string) => ({
      kind: 'categorical' as const,
      values: Array.from({ length: cells }, (_, j) => f(j)),
    });
    const fill = (v: string) => col(() => v);
    await h5.finish({
      obs: {
        cell_type: col((j) => TYPES[j % TYPES.length]![0]),
        cell_type_ontology_term_id: col((j) => TYPES[j % TYPES.length]![1]),
        donor_id: col((j) => `donor_${Math.floor(j / DONOR_CELLS) + 1}`),
        tissue: fill('blood'),
        tissue_ontology_term_id: fill('UBERON:0000178'),
        disease: fill('normal'),
        disease_ontology_term_id: fill('PATO:0000461'),
        assay: fill("10x 3' v3"),
        assay_ontology_term_id: fill('EFO:0009922'),
        development_stage: fill('adult stage'),
        development_stage_ontology_term_id: fill('HsapDv:0000087'),
        sex: col((j) => (Math.floor(j / DONOR_CELLS) % 2 ? 'female' : 'male')),
        organism_ontology_term_id: fill('NCBITaxon:9606'),
      },
      var: { feature_name: { kind: 'categorical', values: symbols } },
    });
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  return counts.nnz;
}

/** The file of `cells` cells under the temporary folder, generated if absent. */
export async function ensureCellxgene(cells: number): Promise<string> {
  const file = path.join(tmpdir(), `cellcloud-cellxgene-${cells}.h5ad`);
  if (!existsSync(file)) await writeCellxgene(file, cells);
  return file;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cells = Number(process.argv[2]);
  if (!Number.isInteger(cells) || cells < 1)
    throw new Error('usage: cellxgene.ts <cells> [file] [genesPerCell]');
  const file = process.argv[3] ?? path.join(tmpdir(), `cellcloud-cellxgene-${cells}.h5ad`);
  const t0 = performance.now();
  const nnz = await writeCellxgene(file, cells, Number(process.argv[4] ?? 800));
  const cpu = process.cpuUsage();
  console.log(
    JSON.stringify({
      file,
      cells,
      nnz,
      seconds: Number(((performance.now() - t0) / 1000).toFixed(1)),
      cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
}
