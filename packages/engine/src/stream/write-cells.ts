import type { CellChunks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import type { CsrRanges } from '@cellcloud/formats';

/**
 * Consecutive element ranges of cell chunks read in order (the chunks of the last range held); the
 * last range can be read again (another array of the same chunks: the counts' indices, then their
 * values), any other range before the current position starts again from the first chunk.
 * Records the cells' offsets (indptr) of every chunk it passes.
 */
class ChunkCursor {
  private i = -1;
  private m: CountMatrix | undefined;
  /** First element of the current chunk, and the next element to read. */
  private base = 0;
  private pos = 0;
  private readonly cells: CellChunks;
  readonly indptr: Float64Array;
  /** Chunks whose offsets are recorded (a prefix). */
  private recorded = 0;
  /** The last range's start and the chunks it spans, with their first elements. */
  private lastStart = 0;
  private held: { base: number; m: CountMatrix }[] = [];

  constructor(cells: CellChunks) {
    this.cells = cells;
    this.indptr = new Float64Array(cells.nCells + 1);
  }

  private next(): boolean {
    if (this.i + 1 >= this.cells.chunkCount) return false;
    this.base += this.m ? this.m.indptr[this.m.nCells] : 0;
    this.i++;
    this.m = this.cells.chunk(this.i);
    if (this.i === this.recorded) {
      const c0 = this.cells.chunkStart(this.i);
      for (let c = 0; c < this.m.nCells; c++) this.indptr[c0 + c + 1] = this.base + this.m.indptr[c + 1];
      this.recorded++;
    }
    return true;
  }

  /** Elements [start, end) of `pick` of the chunks, into `out` (of length end − start). */
  read<T extends Float32Array | Uint32Array>(
    start: number,
    end: number,
    pick: (m: CountMatrix) => T,
    out: T,
  ): T {
    if (start < this.pos && start >= this.lastStart && end <= this.pos) {
      for (const { base, m } of this.held) {
        const from = Math.max(start, base);
        const to = Math.min(end, base + m.indptr[m.nCells]);
        if (to > from) out.set(pick(m).subarray(from - base, to - base), from - start);
      }
      return out;
    }
    if (start < this.pos) {
      this.i = -1;
      this.m = undefined;
      this.base = this.pos = 0;
    }
    this.lastStart = start;
    this.held = [];
    while (this.pos < end) {
      const m = this.m;
      const stop = m ? this.base + m.indptr[m.nCells] : 0;
      if (!m || this.pos >= stop) {
        if (!this.next()) throw new Error(`cell chunks end before element ${end}`);
        continue;
      }
      const to = Math.min(end, stop);
      if (to > start) {
        if (this.held[this.held.length - 1]?.m !== m) this.held.push({ base: this.base, m });
        const from = Math.max(this.pos, start);
        out.set(pick(m).subarray(from - this.base, to - this.base), from - start);
      }
      this.pos = to;
    }
    return out;
  }

  /** The offsets of every cell (reads the chunks not passed yet). */
  offsets(): Float64Array {
    while (this.recorded < this.cells.chunkCount) this.next();
    return this.indptr;
  }
}

/**
 * Cell chunks as CsrRanges for the streamed h5ad writer (beginH5adRanges): values from `values`,
 * cell indices from `layout` (the same sparsity, e.g. the counts of log-normalized values: cheaper
 * to decode). Each pass reads the chunks once, one at a time; without `layout`, values and indices
 * read range by range in turn (the writer's layers/counts beside X) share one pass.
 */
export function csrOfChunks(values: CellChunks, layout: CellChunks = values): CsrRanges {
  const data = new ChunkCursor(values);
  const indices = layout === values ? data : new ChunkCursor(layout);
  return {
    nCells: values.nCells,
    nGenes: values.nGenes,
    nnz: values.nnz,
    data: (s, e) => data.read(s, e, (m) => m.data, new Float32Array(e - s)),
    indices: (s, e) => {
      const out = indices.read(s, e, (m) => m.indices, new Uint32Array(e - s));
      return new Int32Array(out.buffer, out.byteOffset, out.length);
    },
    indptr: () => data.offsets(),
  };
}
