import { FormatError } from './errors';
import { readText } from './gzip';
import type { CellColumn, Dataset } from './matrix';
import { find10xMtx, read10xMtxFiles, type ReadOptions, type TenxMtxFiles } from './read-10x-mtx';
import { baseName, dirName, sampleName, type SourceBundle } from './sources';
import { textLines } from './tables';

/**
 * CeleScope output folders (docs/methods/import-formats.md#celescope-layouts): v2 `{sample}/outs/filtered/` (10x v3 files) or v1
 * `{sample}/05.count/{sample}_filtered_feature_bc_matrix/` (older `{sample}_matrix_10X/`), plus
 * metadata: `outs/tsne_coord.tsv` / `06.analysis/{sample}_tsne_coord.tsv` (cluster, tSNE) and the
 * hidden `.metrics.json` summary.
 */
export interface CelescopeSample {
  sample: string;
  /** Path prefix of the sample folder inside the bundle ("" when the bundle is the sample). */
  root: string;
  files: TenxMtxFiles;
}

const V2 = /(^|\/)outs\/filtered$/;
const V1 = /(^|\/)05\.count\/[^/]*(_filtered_feature_bc_matrix|_matrix_10X)$/;

export function findCelescopeSamples(bundle: SourceBundle): CelescopeSample[] {
  const out: CelescopeSample[] = [];
  for (const files of find10xMtx(bundle)) {
    const dir = dirName(files.matrix.name);
    const v2 = V2.exec(dir);
    const v1 = V1.exec(dir);
    if (!v2 && !v1) continue;
    const root = dir.slice(0, (v2 ?? v1)!.index);
    const sample = root ? baseName(root) : sampleName(bundle.name);
    out.push({ sample, root, files });
  }
  return out;
}

function at(bundle: SourceBundle, root: string, rel: string) {
  return bundle.entries.find((e) => e.name === (root ? `${root}/${rel}` : rel));
}

/** Read one CeleScope sample (the first one found unless `sample` names another). */
export async function readCelescope(
  bundle: SourceBundle,
  opts: ReadOptions & { sample?: string } = {},
): Promise<Dataset> {
  const samples = findCelescopeSamples(bundle);
  const chosen = samples.find((s) => s.sample === opts.sample) ?? samples[0];
  if (!chosen)
    throw new FormatError('source.missing_file', {
      file: bundle.name,
      expected: 'outs/filtered/matrix.mtx.gz',
    });
  const ds = await read10xMtxFiles(chosen.files, chosen.sample, opts);
  ds.format = 'celescope';
  if (samples.length > 1)
    ds.warnings.push(
      `${bundle.name}: ${samples.length} CeleScope samples found; read "${chosen.sample}". Upload one sample per dataset.`,
    );
  const coords =
    at(bundle, chosen.root, 'outs/tsne_coord.tsv') ??
    at(bundle, chosen.root, `06.analysis/${chosen.sample}_tsne_coord.tsv`);
  if (coords) addTsneCoords(ds, textLines(await readText(coords)), coords.name);
  const metrics = at(bundle, chosen.root, '.metrics.json');
  if (metrics) {
    try {
      ds.sampleMetrics = JSON.parse(await readText(metrics)) as Record<string, unknown>;
    } catch {
      ds.warnings.push(`${metrics.name}: not valid JSON; sample metrics were skipped.`);
    }
  }
  return ds;
}

/** Merge `barcode, tSNE_1, tSNE_2, cluster, …` into cell columns and a "X_tsne" embedding. */
function addTsneCoords(ds: Dataset, lines: string[], file: string): void {
  if (lines.length < 2) return;
  const header = lines[0]!.split('\t');
  const pos = new Map(ds.cells.barcodes.map((b, i) => [b, i]));
  const n = ds.counts.nCells;
  const tsne = new Float32Array(n * 2).fill(NaN);
  const cols = header.slice(1).map((name) => ({ name, text: new Array<string>(n).fill('NA') }));
  let matched = 0;
  const firstIsIndex = header.length > 0 && lines[1]!.split('\t').length === header.length + 1;
  for (const l of lines.slice(1)) {
    const f = l.split('\t');
    const fields = firstIsIndex ? f.slice(1) : f;
    const i = pos.get(fields[0]!);
    if (i === undefined) continue;
    matched++;
    cols.forEach((c, k) => (c.text[i] = fields[k + 1] ?? 'NA'));
  }
  if (matched === 0) {
    ds.warnings.push(`${file}: no barcode matched the matrix; the file was skipped.`);
    return;
  }
  for (const c of cols) {
    if (/^tSNE_[12]$/i.test(c.name)) {
      const d = c.name.endsWith('1') ? 0 : 1;
      c.text.forEach((t, i) => (tsne[i * 2 + d] = Number(t)));
      continue;
    }
    const numeric = c.text.every((t) => t === 'NA' || !Number.isNaN(Number(t)));
    const col: CellColumn =
      numeric && c.name !== 'cluster'
        ? { kind: 'numeric', values: Float64Array.from(c.text, (t) => (t === 'NA' ? NaN : Number(t))) }
        : { kind: 'categorical', values: c.text };
    ds.cells.columns[c.name] = col;
  }
  if (cols.some((c) => /^tSNE_1$/i.test(c.name))) ds.embeddings['X_tsne'] = { dims: 2, values: tsne };
  if (matched < n) ds.warnings.push(`${file}: ${n - matched} cells have no tSNE/cluster entry.`);
}
