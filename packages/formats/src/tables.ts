import { makeUnique, subsetGenes } from './csc';
import type { CountMatrix, GeneTable } from './matrix';

/** Non-empty lines of a small text file, without trailing "\r". */
export function textLines(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  for (const raw of lines) {
    const l = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (l.trim() !== '') out.push(l);
  }
  return out;
}

/**
 * A 10x features.tsv (id, name, type) or genes.tsv (id, name). One-column files are repaired as
 * docs/methods/import-formats.md says (the value is used as id and symbol, type "Gene Expression").
 */
export function parseFeatures(
  text: string,
  file: string,
  v3 = false,
): { genes: GeneTable; warnings: string[] } {
  const lines = textLines(text);
  const ids: string[] = [];
  const symbols: string[] = [];
  const types: string[] = [];
  let oneColumn = 0;
  for (const l of lines) {
    const f = l.split('\t');
    if (f.length === 1) oneColumn++;
    ids.push(f[0]!.trim());
    symbols.push((f[1] ?? f[0]!).trim());
    types.push((f[2] ?? 'Gene Expression').trim());
  }
  const warnings: string[] = [];
  if (oneColumn > 0)
    warnings.push(`${file}: ${oneColumn} gene line(s) had one column; the name was used as id and symbol.`);
  const hasTypes = v3 || lines.some((l) => l.split('\t').length >= 3);
  return { genes: { ids, symbols, ...(hasTypes ? { featureTypes: types } : {}) }, warnings };
}

/** Barcodes (first column). Purely numeric barcodes (BD format) get the prefix `{sample}_`. */
export function parseBarcodes(
  text: string,
  file: string,
  sample: string,
): { barcodes: string[]; warnings: string[] } {
  let barcodes = textLines(text).map((l) => l.split('\t')[0]!.trim());
  const warnings: string[] = [];
  if (barcodes.length > 0 && barcodes.every((b) => /^\d+$/.test(b))) {
    barcodes = barcodes.map((b) => `${sample}_${b}`);
    warnings.push(`${file}: barcodes are numeric; prefixed with "${sample}_".`);
  }
  return { barcodes, warnings };
}

/**
 * Final clean-up shared by all readers: keep only "Gene Expression" features when other feature
 * types exist (as scanpy's gex_only), make gene ids and barcodes unique.
 */
export function finishTables(
  counts: CountMatrix,
  genes: GeneTable,
  barcodes: string[],
  warnings: string[],
): { counts: CountMatrix; genes: GeneTable; barcodes: string[] } {
  const g = finishGenes(genes, warnings);
  const m = g.keep ? subsetGenes(counts, g.keep) : counts;
  return { counts: m, genes: g.genes, barcodes: finishBarcodes(barcodes, warnings) };
}

/**
 * The gene half of finishTables: only "Gene Expression" features when others exist (`keep` says
 * which rows stay), ids made unique. Streaming writers (store/) apply `keep` as they go.
 */
export function finishGenes(genes: GeneTable, warnings: string[]): { genes: GeneTable; keep?: boolean[] } {
  let g = genes;
  let keep: boolean[] | undefined;
  const types = genes.featureTypes;
  if (types && types.some((t) => t !== 'Gene Expression') && types.some((t) => t === 'Gene Expression')) {
    keep = types.map((t) => t === 'Gene Expression');
    const dropped = keep.filter((k) => !k).length;
    const pick = <T>(xs: T[]) => xs.filter((_, i) => keep![i]);
    g = { ids: pick(genes.ids), symbols: pick(genes.symbols), featureTypes: pick(types) };
    warnings.push(
      `Kept the ${g.ids.length} "Gene Expression" features; ${dropped} other features (e.g. antibody capture) were set aside.`,
    );
  }
  const ids = makeUnique(g.ids);
  if (ids.renamed)
    warnings.push(`${ids.renamed} repeated gene id(s) were made unique by appending -1, -2, ….`);
  return { genes: { ...g, ids: ids.names }, ...(keep ? { keep } : {}) };
}

/** The barcode half of finishTables: barcodes made unique. */
export function finishBarcodes(barcodes: string[], warnings: string[]): string[] {
  const bc = makeUnique(barcodes);
  if (bc.renamed) warnings.push(`${bc.renamed} repeated barcode(s) were made unique by appending -1, -2, ….`);
  return bc.names;
}
