import type { ValueKind } from '@cellcloud/contracts/files';
import { valueKind } from '@cellcloud/contracts/files';
import { storeCorrupt } from './layout';

/** The index at the end of a count store (JSON; docs/formats/count-store.md#file-layout). */
export interface StoreFooter {
  version: number;
  nGenes: number;
  nCells: number;
  nnz: number;
  valueKind: ValueKind;
  geneIds: string[];
  geneSymbols: string[];
  sampleName?: string;
  /** Per cell chunk: first cell, segment offset, segment bytes, barcodes offset, barcodes bytes. */
  chunks: [number, number, number, number, number][];
  /** Per gene tile: first cell, end cell, segment offset, segment bytes. */
  tiles: [number, number, number, number][];
  /** [offset, bytes] of the per-cell and per-gene non-zero counts (packed streams). */
  cellNnz: [number, number];
  geneNnz: [number, number];
}

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
const isTuple = (x: unknown, n: number): x is number[] =>
  Array.isArray(x) && x.length === n && x.every(isCount);
const isStrings = (x: unknown, n: number): x is string[] =>
  Array.isArray(x) && x.length === n && x.every((s) => typeof s === 'string');

/** Parses and checks the footer: every region inside [16, end), chunks and tiles covering the cells in order. */
export function parseFooter(bytes: Uint8Array, end: number): StoreFooter {
  let f: Partial<StoreFooter>;
  try {
    f = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as Partial<StoreFooter>;
  } catch {
    throw storeCorrupt('the footer is not readable');
  }
  const bad = (what: string) => storeCorrupt(`the footer's ${what} is invalid`);
  if (!f || typeof f !== 'object') throw bad('content');
  const { nGenes, nCells, nnz } = f;
  if (!isCount(nGenes) || !isCount(nCells) || !isCount(nnz)) throw bad('shape');
  if (!valueKind.safeParse(f.valueKind).success) throw bad('value kind');
  if (!isStrings(f.geneIds, nGenes) || !isStrings(f.geneSymbols, nGenes)) throw bad('gene list');
  if (f.sampleName !== undefined && typeof f.sampleName !== 'string') throw bad('sample name');
  const inside = (offset: number, length: number) => offset >= 16 && offset + length <= end;
  if (!isTuple(f.cellNnz, 2) || !inside(f.cellNnz[0]!, f.cellNnz[1]!)) throw bad('cell counts');
  if (!isTuple(f.geneNnz, 2) || !inside(f.geneNnz[0]!, f.geneNnz[1]!)) throw bad('gene counts');
  if (!Array.isArray(f.chunks) || !Array.isArray(f.tiles)) throw bad('chunk list');
  for (const c of f.chunks)
    if (!isTuple(c, 5) || !inside(c[1]!, c[2]!) || !inside(c[3]!, c[4]!)) throw bad('chunk list');
  let cell = 0;
  for (const t of f.tiles) {
    if (!isTuple(t, 4) || t[0] !== cell || t[1]! <= t[0]! || !inside(t[2]!, t[3]!)) throw bad('tile list');
    cell = t[1]!;
  }
  if (cell !== nCells) throw bad('tile list');
  const starts = f.chunks.map((c) => c[0]);
  for (let i = 1; i < starts.length; i++) if (!(starts[i]! > starts[i - 1]!)) throw bad('chunk list');
  if (nCells > 0 && (starts.length === 0 || starts[0] !== 0 || starts[starts.length - 1]! >= nCells))
    throw bad('chunk list');
  return f as StoreFooter;
}
