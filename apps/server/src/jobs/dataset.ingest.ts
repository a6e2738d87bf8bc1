import { createHash } from 'node:crypto';
import { LIMITS, type FileProperties, type JobPayload, type ProgressEvent } from '@cellcloud/contracts';
import { writeH5ad, type ByteSource, type Dataset } from '@cellcloud/formats';
import type { AppContext } from '../context';
import { beginAttempt, findUpload, markCompleted, markFailed, setParseProgress } from '../db/repos/uploads';
import '../i18n/security';
import { watchIngest } from '../services/files/ingest-abort';
import { budgetMessageParams, parseBudget } from '../services/files/parse-budget';
import { loadGeneReferences, matchReference } from '../services/files/gene-reference';
import type { Storage } from '../storage/storage';
import { datasetPrefix, rawFileKey } from '../storage/tus-store';
import type { IngestChildInput, IngestChildResult } from './dataset.ingest.child';
import { ChildProcessFailure, childTask, runInChild } from './runner-child-process';

/**
 * Job `dataset.ingest`: the upload's originals are read with @cellcloud/formats, checked, and
 * converted to the canonical dataset (`datasets/<uploadId>/counts.h5ad` + `manifest.json`) with
 * its file properties — in a memory-capped child process (`dataset.ingest.child.ts`, heap
 * INGEST_MEMORY_MB, reader limits INGEST_MAX_DECOMPRESSED_GB / INGEST_MAX_ENTRIES), never in this
 * process. Bad input → failed with the reader's reason (not retryable: "re-initiate from
 * upload"); a child that dies (out of memory) → failed "too large", retryable; any other error →
 * failed, retryable. An upload re-queued after INGEST_MAX_ATTEMPTS attempts (crashes, restarts)
 * fails with a message instead of parsing again. Deleting the upload kills its child.
 */
export type ReportProgress = (p: ProgressEvent) => Promise<void> | void;

export interface IngestOptions {
  /** Directory of `<species>_<reference>_features.tsv.gz` gene lists (ENSEMBL_GENE_LISTS_DIR). */
  geneListsDir?: string;
  /** The queue job's signal (expiry, shutdown): kills the child. */
  signal?: AbortSignal;
}

/** One data file of an upload as the child reads it. */
export interface IngestFile {
  key: string;
  name: string;
  size: number;
}

export async function handleDatasetIngest(
  ctx: AppContext,
  payload: JobPayload<'dataset.ingest'>,
  reportProgress: ReportProgress,
  opts: IngestOptions = {},
): Promise<void> {
  const upload = await findUpload(ctx.db, payload.uploadId);
  if (!upload || upload.state !== 'parsing') return; // deleted meanwhile, or already handled
  const { maxAttempts, memoryBytes, timeoutMs } = ctx.config.ingest;
  // issue 34: the parse's wall-clock budget is tied to its input size (services/files/parse-budget.ts)
  const inputBytes = upload.files.filter((f) => f.role === 'data').reduce((a, f) => a + f.size, 0);
  const budget = parseBudget(ctx.config.ingest, inputBytes);
  if (upload.attempts >= maxAttempts) {
    await markFailed(ctx.db, upload.id, 'files.failed.attempts', { attempts: upload.attempts }, true);
    return;
  }
  await beginAttempt(ctx.db, upload.id);
  const stop = new AbortController();
  const onOuterAbort = () => stop.abort();
  opts.signal?.addEventListener('abort', onOuterAbort);
  const release = watchIngest(upload.id, stop);
  // Another process (API) may delete the upload: look every second, kill the child when it is gone.
  const watcher = setInterval(() => {
    void findUpload(ctx.db, upload.id).then(
      (u) => {
        if (!u || u.state !== 'parsing') stop.abort();
      },
      () => {},
    );
  }, 1000);
  watcher.unref();
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    stop.abort();
  }, budget.ms);
  deadline.unref();
  const progress = async (fraction: number, step: string) => {
    await setParseProgress(ctx.db, upload.id, fraction);
    await reportProgress({ fraction, step });
  };
  const input: IngestChildInput = {
    uploadId: upload.id,
    sampleName: upload.sampleName,
    dataFiles: upload.files
      .filter((f) => f.role === 'data')
      .map((f) => ({ key: rawFileKey(upload.id, f.idx), name: f.name, size: f.size })),
    metadataFiles: upload.files
      .filter((f) => f.role === 'metadata')
      .map((f) => ({ name: f.name, key: rawFileKey(upload.id, f.idx) })),
    geneListsDir: opts.geneListsDir,
  };
  try {
    await progress(0.02, 'start');
    const r = (await runInChild(
      childTask(new URL('./dataset.ingest.child.ts', import.meta.url), upload.id, input),
      {
        config: ctx.config,
        signal: stop.signal,
        memoryBytes,
        onProgress: progress,
      },
    )) as IngestChildResult;
    if (!(await stillParsing(ctx, upload.id))) return cleanUpDeleted(ctx, upload.id);
    if (!r.ok) {
      await markFailed(ctx.db, upload.id, `format.${r.formatError.code}`, r.formatError.params, false);
      return;
    }
    await markCompleted(ctx.db, upload.id, {
      format: r.format,
      properties: r.properties,
      usable: r.properties.usable,
      datasetSize: r.datasetSize,
    });
    await reportProgress({ fraction: 1, step: 'done' });
  } catch (e) {
    if (!(await stillParsing(ctx, upload.id))) return cleanUpDeleted(ctx, upload.id);
    const detail = (e instanceof Error ? e.message : String(e)).slice(0, 300);
    if (timedOut && budget.bySize) {
      const params = budgetMessageParams(ctx.config.ingest, inputBytes, budget.ms);
      await markFailed(ctx.db, upload.id, 'files.failed.budget', params, true);
    } else if (timedOut) {
      await markFailed(
        ctx.db,
        upload.id,
        'files.failed.timeout',
        { minutes: Math.round((timeoutMs / 60_000) * 10) / 10 },
        true,
      );
    } else if (e instanceof ChildProcessFailure && /ended unexpectedly/.test(detail)) {
      await markFailed(
        ctx.db,
        upload.id,
        'files.failed.tooLarge',
        { memory: `${Math.round(memoryBytes / 1024 / 1024)} MB` },
        true,
      );
    } else {
      await markFailed(ctx.db, upload.id, 'files.failed.crash', { detail }, true);
    }
  } finally {
    clearInterval(watcher);
    clearTimeout(deadline);
    release();
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
}

async function stillParsing(ctx: AppContext, id: string): Promise<boolean> {
  return (await findUpload(ctx.db, id))?.state === 'parsing';
}

/** A deleted upload's parse was stopped: drop whatever the child wrote before it was killed. */
async function cleanUpDeleted(ctx: AppContext, id: string): Promise<void> {
  if (!(await findUpload(ctx.db, id))) await ctx.storage.delete(datasetPrefix(id)).catch(() => {});
}

/** A ByteSource over a storage object (range reads; works for local and S3 storage). */
export function storageSource(
  storage: Storage,
  key: string,
  name: string,
  size: number,
  onBytes: (n: number) => void = () => {},
): ByteSource {
  return {
    name,
    size,
    async read(offset, length) {
      const end = Math.min(size, offset + length) - 1;
      if (end < offset) return new Uint8Array(0);
      const chunks: Uint8Array[] = [];
      for await (const c of await storage.get(key, { start: offset, end })) chunks.push(c as Uint8Array);
      const out = Buffer.concat(chunks);
      onBytes(out.length);
      return out;
    },
    async *stream() {
      for await (const c of await storage.get(key)) {
        const b = c as Buffer;
        onBytes(b.byteLength);
        yield new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      }
    },
  };
}

/** docs/product/entities.md#file-properties file properties + docs/product/validation.md#analysis-rules cell limits. */
export async function computeProperties(
  d: Dataset,
  geneListsDir: string | undefined,
): Promise<FileProperties> {
  const { nCells, nGenes, indptr, data } = d.counts;
  const totals = new Float64Array(nCells);
  for (let j = 0; j < nCells; j++) {
    let s = 0;
    for (let k = indptr[j]!; k < indptr[j + 1]!; k++) s += data[k]!;
    totals[j] = s;
  }
  const sorted = Float64Array.from(totals).sort();
  const total = totals.reduce((a, b) => a + b, 0);
  const median =
    nCells === 0
      ? 0
      : nCells % 2
        ? sorted[(nCells - 1) / 2]!
        : (sorted[nCells / 2 - 1]! + sorted[nCells / 2]!) / 2;
  const usable = nCells > LIMITS.minCellsPerSample && nCells < LIMITS.maxCellsPerSample;
  const match = matchReference(d, await loadGeneReferences(geneListsDir));
  return {
    ...match,
    cells: nCells,
    genes: nGenes,
    umi: {
      total,
      min: sorted[0] ?? 0,
      median,
      mean: nCells ? total / nCells : 0,
      max: sorted[nCells - 1] ?? 0,
    },
    usable,
    unusableReasonKey: usable ? null : 'files.unusable.cells',
    warnings: d.warnings,
    ...(d.nonInteger ? { nonInteger: true } : {}),
    ...(d.valueKind ? { valueKind: d.valueKind } : {}),
  };
}

/** Writes the canonical dataset and manifest.json (shape, species, content hash); returns bytes written. */
export async function writeCanonical(
  storage: Storage,
  upload: { id: string; sampleName: string; metadataFiles: { name: string; key: string }[] },
  d: Dataset,
  p: FileProperties,
): Promise<number> {
  const obs = Object.fromEntries(Object.entries(d.cells.columns));
  const h5ad = await writeH5ad({
    counts: d.counts,
    genes: d.genes,
    barcodes: d.cells.barcodes,
    obs,
    obsm: d.embeddings,
  });
  const files: Record<string, Uint8Array> = { 'counts.h5ad': h5ad };
  const prefix = datasetPrefix(upload.id);
  const hash = createHash('sha256');
  let size = 0;
  for (const [name, bytes] of Object.entries(files)) {
    await storage.put(`${prefix}${name}`, bytes);
    hash.update(bytes);
    size += bytes.length;
  }
  const manifest = {
    uploadId: upload.id,
    sampleName: upload.sampleName,
    format: d.format,
    files: Object.keys(files).map((n) => `${prefix}${n}`),
    shape: { cells: p.cells, genes: p.genes, nnz: d.counts.data.length },
    species: p.species,
    ensemblRelease: p.ensemblRelease,
    ensemblReference: p.ensemblReference,
    overlapPercent: p.overlapPercent,
    contentSha256: hash.digest('hex'),
    metadataFiles: upload.metadataFiles,
    createdAt: new Date().toISOString(),
  };
  const manifestBytes = new TextEncoder().encode(JSON.stringify(manifest, null, 2));
  await storage.put(`${prefix}manifest.json`, manifestBytes);
  return size + manifestBytes.length;
}
