import { valueKindOf } from '@cellcloud/contracts/files';
import { crc32 } from '../archive';
import type { PositionalSink } from '../hdf5-write';
import type { CountMatrix } from '../matrix';
import { packBlocks } from './bitpack';
import {
  align8,
  encodeHeader,
  encodeTrailer,
  HEADER_BYTES,
  STORE_VERSION,
  storeInvalidInput,
} from './layout';
import { encodeSegment, type ValueFacts } from './segment';
import type { StoreFooter } from './footer';

export interface CountStoreHeader {
  geneIds: string[];
  geneSymbols: string[];
  sampleName?: string;
}

export interface CountStoreWriterOptions {
  /** Cells per cell-major chunk (default 2,048). */
  chunkCells?: number;
  /** Most cells per gene-major tile (default 16,384). */
  tileCells?: number;
  /** Most non-zeros per tile (default 2²³): bounds the writer's memory at ≈ 32 B per tile non-zero. */
  tileNnz?: number;
  /**
   * First byte for the sections (default 16, just after the header). A writer that starts over on
   * a sink an earlier writer left unfinished passes that writer's `position` so the new trailer
   * ends the file; the earlier bytes are left unused.
   */
  startAt?: number;
}

const DEFAULTS = { chunkCells: 2048, tileCells: 16384, tileNnz: 1 << 23, startAt: HEADER_BYTES };

/** A packed stream of unsigned integers: u32 n · u32 words · widths (padded to 4) · words. */
export function encodeUintStream(values: Uint32Array): Uint8Array {
  const { widths, words } = packBlocks(values, values.length);
  const wAt = 8 + ((widths.length + 3) & ~3);
  const out = new Uint8Array(wAt + words.length * 4);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, values.length, true);
  dv.setUint32(4, words.length, true);
  out.set(widths, 8);
  new Uint32Array(out.buffer, wAt, words.length).set(words);
  return out;
}

/**
 * Writes a count store (docs/formats/count-store.md) through a positional sink, cells in order.
 * Holds one tile of cells (at most `tileCells` cells and `tileNnz` non-zeros, plus its
 * transpose), the per-cell and per-gene non-zero counts and the index: never the matrix.
 */
export class CountStoreWriter {
  private readonly nGenes: number;
  private readonly opts: Required<CountStoreWriterOptions>;
  private pos = HEADER_BYTES;
  private headerWritten = false;
  private finished = false;
  // the pending tile, cell-major
  private ptr = new Float64Array(1);
  private idx = new Uint32Array(0);
  private val = new Float32Array(0);
  private cells = 0;
  private barcodes: string[] = [];
  // everything written so far
  private nCells = 0;
  private nnz = 0;
  private cellNnz = new Uint32Array(1024);
  private readonly geneNnz: Float64Array;
  private readonly facts: ValueFacts = { nonInteger: false, max: 0 };
  private readonly footer: Pick<StoreFooter, 'chunks' | 'tiles'> = { chunks: [], tiles: [] };

  constructor(
    private readonly sink: PositionalSink,
    private readonly header: CountStoreHeader,
    options: CountStoreWriterOptions = {},
  ) {
    this.nGenes = header.geneIds.length;
    if (header.geneSymbols.length !== this.nGenes)
      throw storeInvalidInput(`${header.geneSymbols.length} gene symbols for ${this.nGenes} gene ids`);
    this.opts = { ...DEFAULTS, ...options } as Required<CountStoreWriterOptions>;
    for (const k of ['chunkCells', 'tileCells', 'tileNnz'] as const)
      if (!(Number.isInteger(this.opts[k]) && this.opts[k] > 0))
        throw storeInvalidInput(`${k} must be a positive integer`);
    if (this.opts.startAt < HEADER_BYTES) throw storeInvalidInput(`startAt must be at least ${HEADER_BYTES}`);
    this.pos = this.opts.startAt;
    this.geneNnz = new Float64Array(this.nGenes);
  }

  /** The end of what has been written so far. */
  get position(): number {
    return this.pos;
  }

  /** Appends cells in order (CSC by cell as matrix.ts), any number per call. */
  async addCells(m: CountMatrix, barcodes: string[]): Promise<void> {
    if (this.finished) throw storeInvalidInput('cells added after finish()');
    if (m.nGenes !== this.nGenes)
      throw storeInvalidInput(`a block of ${m.nGenes} genes for a store of ${this.nGenes}`);
    if (barcodes.length !== m.nCells)
      throw storeInvalidInput(`${barcodes.length} barcodes for ${m.nCells} cells`);
    const { tileCells, tileNnz } = this.opts;
    let c0 = 0;
    while (c0 < m.nCells) {
      // the longest run of cells that fits the pending tile (at least one cell)
      let c1 = c0;
      const room = tileNnz - this.pendingNnz();
      while (c1 < m.nCells && this.cells + (c1 - c0) < tileCells) {
        // a cell larger than a whole tile still goes alone into an empty one
        if (m.indptr[c1 + 1]! - m.indptr[c0]! > room && !(this.cells === 0 && c1 === c0)) break;
        c1++;
      }
      if (c1 === c0) {
        await this.flushTile();
        continue;
      }
      this.append(m, c0, c1, barcodes);
      c0 = c1;
      if (this.cells >= tileCells || this.pendingNnz() >= tileNnz) await this.flushTile();
    }
  }

  async finish(): Promise<{ bytes: number; nCells: number; nnz: number }> {
    if (this.finished) throw storeInvalidInput('finish() called twice');
    await this.flushTile();
    await this.ensureHeader();
    this.finished = true;
    const geneNnz = new Uint32Array(this.nGenes);
    geneNnz.set(this.geneNnz);
    const cellNnzAt = await this.section(encodeUintStream(this.cellNnz.subarray(0, this.nCells)));
    const geneNnzAt = await this.section(encodeUintStream(geneNnz));
    const footer: StoreFooter = {
      version: STORE_VERSION,
      nGenes: this.nGenes,
      nCells: this.nCells,
      nnz: this.nnz,
      valueKind: valueKindOf(this.facts.nonInteger, this.facts.max),
      geneIds: this.header.geneIds,
      geneSymbols: this.header.geneSymbols,
      ...(this.header.sampleName !== undefined ? { sampleName: this.header.sampleName } : {}),
      chunks: this.footer.chunks,
      tiles: this.footer.tiles,
      cellNnz: cellNnzAt,
      geneNnz: geneNnzAt,
    };
    const json = new TextEncoder().encode(JSON.stringify(footer));
    const [footerOffset] = await this.section(json);
    const trailer = encodeTrailer({ footerOffset, footerBytes: json.length, footerCrc: crc32(json) });
    await this.sink.write(trailer, this.pos);
    this.pos += trailer.length;
    return { bytes: this.pos, nCells: this.nCells, nnz: this.nnz };
  }

  private pendingNnz(): number {
    return this.ptr[this.cells]!;
  }

  private append(m: CountMatrix, c0: number, c1: number, barcodes: string[]): void {
    const s = m.indptr[c0]!;
    const e = m.indptr[c1]!;
    const n = c1 - c0;
    const at = this.pendingNnz();
    this.ensureCapacity(this.cells + n, at + (e - s));
    if (this.nCells + this.cells + n > this.cellNnz.length) {
      const grown = new Uint32Array(Math.max(this.cellNnz.length * 2, this.nCells + this.cells + n));
      grown.set(this.cellNnz);
      this.cellNnz = grown;
    }
    for (let c = c0; c < c1; c++) {
      const k = this.cells + (c - c0);
      this.ptr[k + 1] = at + (m.indptr[c + 1]! - s);
      this.cellNnz[this.nCells + k] = m.indptr[c + 1]! - m.indptr[c]!;
    }
    this.idx.set(m.indices.subarray(s, e), at);
    this.val.set(m.data.subarray(s, e), at);
    for (let c = c0; c < c1; c++) {
      const b = barcodes[c]!;
      if (b.includes('\n')) throw storeInvalidInput(`barcode ${JSON.stringify(b)} holds a line break`);
      this.barcodes.push(b);
    }
    this.cells += n;
  }

  private ensureCapacity(cells: number, nnz: number): void {
    if (cells + 1 > this.ptr.length) {
      const p = new Float64Array(Math.max(cells + 1, Math.min(this.opts.tileCells + 1, this.ptr.length * 2)));
      p.set(this.ptr);
      this.ptr = p;
    }
    if (nnz > this.idx.length) {
      const cap = Math.max(nnz, Math.min(this.opts.tileNnz, Math.max(1 << 16, this.idx.length * 2)));
      const idx = new Uint32Array(cap);
      idx.set(this.idx);
      const val = new Float32Array(cap);
      val.set(this.val);
      this.idx = idx;
      this.val = val;
    }
  }

  private async ensureHeader(): Promise<void> {
    if (this.headerWritten) return;
    await this.sink.write(encodeHeader(), 0);
    this.headerWritten = true;
  }

  /** Writes `bytes` at the next 8-aligned position; returns [offset, length]. */
  private async section(bytes: Uint8Array): Promise<[number, number]> {
    const at = align8(this.pos);
    await this.sink.write(bytes, at);
    this.pos = at + bytes.length;
    return [at, bytes.length];
  }

  private async flushTile(): Promise<void> {
    await this.ensureHeader();
    const n = this.cells;
    if (n === 0) return;
    const nnz = this.pendingNnz();
    const invalid = (detail: string) => storeInvalidInput(`cell ${this.nCells}…: ${detail}`);
    // cell-major chunks, each followed by its barcodes
    const { chunkCells } = this.opts;
    for (let c0 = 0; c0 < n; c0 += chunkCells) {
      const c1 = Math.min(n, c0 + chunkCells);
      const s = this.ptr[c0]!;
      const e = this.ptr[c1]!;
      const seg = encodeSegment(
        c1 - c0,
        this.ptr.subarray(c0, c1 + 1),
        s,
        this.idx.subarray(s, e),
        this.val.subarray(s, e),
        this.nGenes,
        this.facts,
        invalid,
      );
      const [offset, bytes] = await this.section(seg);
      const [bcOffset, bcBytes] = await this.section(
        new TextEncoder().encode(this.barcodes.slice(c0, c1).join('\n')),
      );
      this.footer.chunks.push([this.nCells + c0, offset, bytes, bcOffset, bcBytes]);
    }
    // the gene-major tile: a counting sort of the pending cells by gene
    const { idx, val, ptr } = this;
    const gptr = new Float64Array(this.nGenes + 1);
    const fill = new Uint32Array(this.nGenes);
    for (let k = 0; k < nnz; k++) fill[idx[k]!]!++;
    for (let g = 0; g < this.nGenes; g++) {
      const count = fill[g]!;
      this.geneNnz[g] += count;
      gptr[g + 1] = gptr[g]! + count;
      fill[g] = gptr[g]!;
    }
    const tCells = new Uint32Array(nnz);
    const tVals = new Float32Array(nnz);
    for (let c = 0; c < n; c++) {
      const e = ptr[c + 1]!;
      for (let k = ptr[c]!; k < e; k++) {
        const p = fill[idx[k]!]!++;
        tCells[p] = c;
        tVals[p] = val[k]!;
      }
    }
    const tile = encodeSegment(
      this.nGenes,
      gptr,
      0,
      tCells,
      tVals,
      n,
      { nonInteger: false, max: 0 },
      invalid,
    );
    const [offset, bytes] = await this.section(tile);
    this.footer.tiles.push([this.nCells, this.nCells + n, offset, bytes]);
    this.nCells += n;
    this.nnz += nnz;
    this.cells = 0;
    this.barcodes = [];
  }
}
