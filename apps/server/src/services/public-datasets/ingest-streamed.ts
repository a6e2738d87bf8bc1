import { randomUUID } from 'node:crypto';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { withH5adCellBlocks, type H5adParts } from '@cellcloud/formats/h5ad-cell-blocks';
import { fileRandomAccess } from '@cellcloud/formats/node-sources';
import { beginH5adRanges, type CsrRanges } from '@cellcloud/formats/write-h5ad';
import type { CellColumn } from '@cellcloud/formats/matrix';
import { FormatError } from '@cellcloud/formats';
import {
  parseMeta,
  PublicIngestError,
  standardizePublicH5ad,
  standardizeValid,
  validateCellxgene,
} from './ingest';
import type { IngestDataset, StagedCounts, Standardized } from './store';

/**
 * Input cells from which a CELLxGENE h5ad is ingested streamed (issue 33). Below, the file is read
 * whole (readH5adBytes: ≈ 8 B per non-zero plus the file's bytes). The admin tool passes the
 * analysis job's threshold (config CELLCLOUD_STREAMED_MIN_CELLS) when set.
 */
export const PUBLIC_STREAMED_MIN_CELLS = 200_000;

/**
 * The CELLxGENE ingest of a local file (the admin tool's `ingest-public`) with bounded memory
 * (issue 33, docs/benchmarks/public-database.md "1M cells"): from `minCells` cells, a file whose counts are a
 * CSR raw.X / X / layers["counts"] (withH5adCellBlocks) is never read whole. obs and var are read
 * and checked against the schema first (every rule but the counts' integers); then the canonical
 * counts.h5ad is written streamed into a scratch file — X's values, then its indices, read from the
 * input in ranges of 262,144 entries (beginH5adRanges), the UMI total per cell and the integer
 * check taken on the way — with the standardized levels in obs. stagePublicCounts uploads that file
 * as a stream. Memory: obs / var, 8 B per cell of totals and indptr, and a few chunks; never the
 * non-zeros. Smaller files and other layouts go through standardizePublicH5ad.
 */
export async function standardizePublicH5adFile(
  file: string,
  fileName: string,
  rawMeta: unknown,
  minCells = PUBLIC_STREAMED_MIN_CELLS,
): Promise<Standardized> {
  const meta = parseMeta(rawMeta);
  const source = fileRandomAccess(file);
  const small = Symbol('read whole');
  // errors of ours leave the reader's scope as values (it reports any other failure as the file's)
  let r: Standardized | typeof small | { failed: unknown };
  try {
    r = await withH5adCellBlocks(
      source,
      fileName,
      (parts) =>
        parts.inMemory || parts.counts.nCells < minCells
          ? small
          : streamed(parts, fileName, meta).catch((failed: unknown) => ({ failed })),
      { rawOrX: true },
    );
  } catch (e) {
    if (e instanceof FormatError)
      throw new PublicIngestError([{ rule: `file.${e.code}`, message: e.message }]);
    throw e;
  } finally {
    source.close();
  }
  if (r === small) return standardizePublicH5ad(new Uint8Array(await readFile(file)), fileName, rawMeta);
  if ('failed' in r) throw r.failed;
  return r;
}

type Meta = ReturnType<typeof parseMeta>;

async function streamed(parts: H5adParts, fileName: string, meta: Meta): Promise<Standardized> {
  const { counts } = parts;
  const n = counts.nCells;
  const nnz = counts.indptr[n]!;
  // one scratch file (no folder): stagePublicCounts / discardStaged remove it
  const file = path.join(tmpdir(), `cellcloud-public-ingest-${randomUUID()}.h5ad`);
  const staged: StagedCounts = { file, nnz, totals: new Float64Array(n) };
  const d: IngestDataset = {
    counts: { nCells: n, nGenes: counts.nGenes },
    genes: parts.genes,
    cells: parts.cells,
    warnings: parts.where && parts.where !== 'X' ? [`${fileName}: raw counts read from ${parts.where}.`] : [],
    nonInteger: false,
    staged,
  };
  // the schema's rules on obs / var before any counts are read
  const violations = validateCellxgene(d, meta);
  if (violations.length) throw new PublicIngestError(violations);
  const std = standardizeValid(d, meta);
  const fd = openSync(staged.file, 'w');
  try {
    const sink = {
      write: async (bytes: Uint8Array, position: number) => {
        for (let done = 0; done < bytes.length;)
          done += writeSync(fd, bytes, done, bytes.length - done, position + done);
      },
    };
    const h5 = await beginH5adRanges(
      { counts: csrRanges(parts, staged.totals), genes: d.genes, barcodes: d.cells.barcodes },
      sink,
    );
    const obs: Record<string, CellColumn> = { ...d.cells.columns, ...std.s.levels };
    await h5.finish({ obs });
  } catch (e) {
    closeSync(fd);
    rmSync(file, { force: true });
    if (e instanceof NotCounts)
      throw new PublicIngestError([
        { rule: 'counts.integer', message: `raw counts (${parts.where ?? 'X'}) are not integers` },
      ]);
    throw e;
  }
  closeSync(fd);
  return std;
}

class NotCounts extends Error {}

const asNumber = (x: number | bigint) => Number(x);

/** The input's counts in element ranges; the values pass adds each cell's total and checks integers. */
function csrRanges(parts: H5adParts, totals: Float64Array): CsrRanges {
  const { counts } = parts;
  const { indptr } = counts;
  let cell = 0;
  return {
    nCells: counts.nCells,
    nGenes: counts.nGenes,
    nnz: indptr[counts.nCells]!,
    data(s, e) {
      const src = counts.entries(s, e).data;
      const out = src instanceof Float32Array ? src : Float32Array.from(src as ArrayLike<number>, asNumber);
      while (cell < counts.nCells && indptr[cell + 1]! <= s) cell++;
      for (let p = s; p < e; p++) {
        while (indptr[cell + 1]! <= p) cell++;
        const v = out[p - s]!;
        if (!(v >= 0) || !Number.isInteger(v)) throw new NotCounts();
        totals[cell] += v;
      }
      return out;
    },
    indices(s, e) {
      const src = counts.entries(s, e).indices;
      return src instanceof Int32Array ? src : Int32Array.from(src as ArrayLike<number>, asNumber);
    },
    indptr: () => Float64Array.from(indptr),
  };
}
