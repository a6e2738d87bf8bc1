import { FormatError } from './errors';
import { checkDeclared, readLimits } from './limits';

/** Streaming MatrixMarket coordinate parser over raw bytes (no per-line strings for entries). */
export interface MtxHeader {
  rows: number;
  cols: number;
  entries: number;
  field: 'integer' | 'real' | 'pattern';
}

export interface MtxTriplets {
  header: MtxHeader;
  /** 0-based row / column of each stored non-zero; explicit zeros are dropped. */
  row: Uint32Array;
  col: Uint32Array;
  val: Float32Array;
  /** Number of stored non-zeros (≤ header.entries). */
  count: number;
  /** True when non-integer values were accepted (only with `allowNonInteger`). */
  nonInteger: boolean;
}

export interface MtxParseOptions {
  /** Accept non-integer (but non-negative) values instead of failing. */
  allowNonInteger?: boolean;
  /** Called once the size line is read, before any entry: throw to stop early (e.g. count mismatch). */
  onHeader?: (header: MtxHeader) => void;
  /**
   * Most bytes the (decompressed) content can have: the declared entry count is checked against
   * it (an entry line has at least 4 bytes) before anything is allocated.
   */
  contentBytes?: number;
}

/** Largest value a float32 count can hold; above it the stored value would be Infinity. */
export const FLOAT32_MAX = 3.4028234663852886e38;
/** A plain decimal number (no hex, no Infinity/NaN, no separators). */
export const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const NL = 10;
const CR = 13;
const SP = 32;
const TAB = 9;
const PCT = 37;

function asciiSlice(buf: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let k = start; k < end && k < start + 80; k++) s += String.fromCharCode(buf[k]!);
  return s;
}

export class MtxParser {
  private line = 0;
  private header: MtxHeader | undefined;
  private bannerSeen = false;
  private field: MtxHeader['field'] = 'integer';
  private carry: Uint8Array | null = null;
  private row = new Uint32Array(0);
  private col = new Uint32Array(0);
  private val = new Float32Array(0);
  private count = 0;
  private seen = 0;
  private nonInteger = false;

  constructor(
    private readonly file: string,
    private readonly opts: MtxParseOptions = {},
  ) {}

  push(chunk: Uint8Array): void {
    let buf = chunk;
    if (this.carry) {
      buf = new Uint8Array(this.carry.length + chunk.length);
      buf.set(this.carry, 0);
      buf.set(chunk, this.carry.length);
      this.carry = null;
    }
    const last = buf.lastIndexOf(NL);
    if (last < 0) {
      this.carry = buf.slice();
      return;
    }
    this.lines(buf, last + 1);
    if (last + 1 < buf.length) this.carry = buf.slice(last + 1);
  }

  /**
   * Hands over the entries parsed so far (copies) and forgets them, so a streaming caller (the
   * count store's MTX writer) holds only what one pushed chunk adds; `finish()` returns the rest.
   */
  take(): Pick<MtxTriplets, 'row' | 'col' | 'val' | 'count' | 'nonInteger'> {
    const n = this.count;
    this.count = 0;
    return {
      row: this.row.slice(0, n),
      col: this.col.slice(0, n),
      val: this.val.slice(0, n),
      count: n,
      nonInteger: this.nonInteger,
    };
  }

  finish(): MtxTriplets {
    if (this.carry) {
      const tail = new Uint8Array(this.carry.length + 1);
      tail.set(this.carry, 0);
      tail[this.carry.length] = NL;
      this.carry = null;
      this.lines(tail, tail.length);
    }
    const header = this.header;
    if (!header)
      throw this.badHeader(
        this.bannerSeen ? 'missing the "rows cols entries" size line' : 'the file is empty',
      );
    if (this.seen < header.entries) {
      throw new FormatError('mtx.truncated', { file: this.file, expected: header.entries, found: this.seen });
    }
    return {
      header,
      row: this.row.subarray(0, this.count),
      col: this.col.subarray(0, this.count),
      val: this.val.subarray(0, this.count),
      count: this.count,
      nonInteger: this.nonInteger,
    };
  }

  private badHeader(detail: string): FormatError {
    return new FormatError('mtx.bad_header', { file: this.file, line: Math.max(1, this.line), detail });
  }

  private headerLine(text: string): void {
    const t = text.trim();
    if (!this.bannerSeen) {
      const m = /^%%MatrixMarket\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)/i.exec(t);
      if (!m) throw this.badHeader(`first line is "${t.slice(0, 60)}"`);
      const [object, format, field, symmetry] = [m[1]!, m[2]!, m[3]!, m[4]!].map((s) => s.toLowerCase());
      if (object !== 'matrix' || format !== 'coordinate')
        throw this.badHeader(`"${object} ${format}" is not supported; only "matrix coordinate"`);
      if (field !== 'integer' && field !== 'real' && field !== 'pattern' && field !== 'double')
        throw this.badHeader(`field "${field}" is not supported`);
      if (symmetry !== 'general')
        throw this.badHeader(`symmetry "${symmetry}" is not supported; only "general"`);
      this.field = field === 'double' ? 'real' : field;
      this.bannerSeen = true;
      return;
    }
    if (t === '' || t.startsWith('%')) return;
    const parts = t.split(/\s+/);
    const nums = parts.map(Number);
    if (parts.length !== 3 || nums.some((x) => !Number.isInteger(x) || x < 0))
      throw this.badHeader(`size line "${t.slice(0, 60)}" is not "rows cols entries"`);
    const [rows, cols, entries] = nums as [number, number, number];
    const limits = readLimits();
    checkDeclared(this.file, 'rows', rows, limits.maxDimension);
    checkDeclared(this.file, 'columns', cols, limits.maxDimension);
    checkDeclared(
      this.file,
      'entries',
      entries,
      Math.min(limits.maxEntries, rows * cols),
      this.opts.contentBytes,
      4,
    );
    this.header = { rows, cols, entries, field: this.field };
    this.opts.onHeader?.(this.header);
    // Grown as entries arrive (never allocated from the declared count alone).
    this.grow(Math.min(entries, 1 << 16));
  }

  private grow(capacity: number): void {
    const row = new Uint32Array(capacity);
    const col = new Uint32Array(capacity);
    const val = new Float32Array(capacity);
    row.set(this.row.subarray(0, this.count));
    col.set(this.col.subarray(0, this.count));
    val.set(this.val.subarray(0, this.count));
    this.row = row;
    this.col = col;
    this.val = val;
  }

  private badEntry(line: number, buf: Uint8Array, start: number): FormatError {
    let end = buf.indexOf(NL, start);
    if (end < 0) end = buf.length;
    if (end > start && buf[end - 1] === CR) end--;
    return new FormatError('mtx.bad_entry', {
      file: this.file,
      line,
      text: asciiSlice(buf, start, end).trim(),
    });
  }

  private lines(buf: Uint8Array, end: number): void {
    let pos = 0;
    while (pos < end && !this.header) {
      const eol = buf.indexOf(NL, pos);
      this.line++;
      this.headerLine(new TextDecoder().decode(buf.subarray(pos, eol)));
      pos = eol + 1;
    }
    if (pos < end) this.entries(buf, pos, end);
  }

  /** Entry lines in buf[start, end) — end is just after a newline. One pass, no per-line calls. */
  private entries(buf: Uint8Array, start: number, end: number): void {
    const h = this.header!;
    const { rows, cols, entries } = h;
    const pattern = h.field === 'pattern';
    const allowNonInteger = this.opts.allowNonInteger === true;
    let row = this.row;
    let col = this.col;
    let val = this.val;
    let line = this.line;
    let count = this.count;
    let seen = this.seen;
    let p = start;
    let c = 0;
    while (p < end) {
      line++;
      const lineStart = p;
      let b = buf[p]!;
      while (b === SP || b === TAB) b = buf[++p]!;
      if (b === NL || b === CR || b === PCT) {
        while (buf[p] !== NL) p++;
        p++;
        continue;
      }
      let i = 0;
      const si = p;
      while ((c = buf[p]! - 48) >= 0 && c <= 9) {
        i = i * 10 + c;
        p++;
      }
      if (p === si || (buf[p] !== SP && buf[p] !== TAB)) throw this.badEntry(line, buf, lineStart);
      while (buf[p] === SP || buf[p] === TAB) p++;
      let j = 0;
      const sj = p;
      while ((c = buf[p]! - 48) >= 0 && c <= 9) {
        j = j * 10 + c;
        p++;
      }
      if (p === sj) throw this.badEntry(line, buf, lineStart);
      let v = 1;
      if (!pattern) {
        if (buf[p] !== SP && buf[p] !== TAB) throw this.badEntry(line, buf, lineStart);
        while (buf[p] === SP || buf[p] === TAB) p++;
        const sv = p;
        v = 0;
        while ((c = buf[p]! - 48) >= 0 && c <= 9) {
          v = v * 10 + c;
          p++;
        }
        b = buf[p]!;
        if (b !== SP && b !== TAB && b !== NL && b !== CR) {
          while (b !== SP && b !== TAB && b !== NL && b !== CR) b = buf[++p]!;
          const text = asciiSlice(buf, sv, p);
          v = Number(text);
          if (!DECIMAL.test(text) || Number.isNaN(v)) throw this.badEntry(line, buf, lineStart);
        } else if (p === sv) throw this.badEntry(line, buf, lineStart);
      }
      b = buf[p]!;
      while (b === SP || b === TAB || b === CR) b = buf[++p]!;
      if (b !== NL) throw this.badEntry(line, buf, lineStart);
      p++;
      if (i < 1 || i > rows || j < 1 || j > cols) {
        throw new FormatError('mtx.index_out_of_range', {
          file: this.file,
          line,
          row: i,
          col: j,
          rows,
          cols,
        });
      }
      if (seen >= entries)
        throw new FormatError('mtx.too_many_entries', { file: this.file, line, expected: entries });
      seen++;
      if (!Number.isFinite(v) || Math.abs(v) > FLOAT32_MAX)
        throw new FormatError('counts.not_finite', { file: this.file, where: `line ${line}`, value: v });
      if (v < 0)
        throw new FormatError('counts.negative', { file: this.file, where: `line ${line}`, value: v });
      if (!Number.isInteger(v)) {
        if (!allowNonInteger)
          throw new FormatError('counts.non_integer', { file: this.file, where: `line ${line}`, value: v });
        this.nonInteger = true;
      }
      if (v === 0) continue;
      if (count === row.length) {
        this.count = count;
        this.grow(Math.min(entries, Math.max(1024, row.length * 2)));
        row = this.row;
        col = this.col;
        val = this.val;
      }
      row[count] = i - 1;
      col[count] = j - 1;
      val[count] = v;
      count++;
    }
    this.line = line;
    this.count = count;
    this.seen = seen;
  }
}

export async function parseMtx(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
  opts: MtxParseOptions = {},
): Promise<MtxTriplets> {
  const parser = new MtxParser(file, opts);
  for await (const chunk of chunks) parser.push(chunk);
  return parser.finish();
}
