import { createHash } from 'node:crypto';
import { LIMITS, type FileProperties, type JobPayload, type ProgressEvent } from '@cellcloud/contracts';
import { isFormatError, readDataset, writeH5ad, type ByteSource, type Dataset } from '@cellcloud/formats';
import type { AppContext } from '../context';
import { beginAttempt, findUpload, markCompleted, markFailed, setParseProgress, type UploadRecord } from '../db/repos/uploads';
import { loadGeneReferences, matchReference } from '../services/files/gene-reference';
import type { Storage } from '../storage/storage';
import { datasetPrefix, rawFileKey } from '../storage/tus-store';

/**
 * Job `dataset.ingest`: reads an upload's originals with @cellcloud/formats, writes the canonical
 * dataset (`datasets/<uploadId>/counts.h5ad` + `manifest.json`), computes the file properties and
 * moves the upload to 'completed' or 'failed'. Bad input → failed with the reader's reason (not
 * retryable: "re-initiate from upload"); any other error → failed and retryable. The originals are
 * never touched.
 */
export type ReportProgress = (p: ProgressEvent) => Promise<void> | void;

export interface IngestOptions {
  /** Directory of `<species>_<reference>_features.tsv.gz` gene lists (ENSEMBL_GENE_LISTS_DIR). */
  geneListsDir?: string;
}

export async function handleDatasetIngest(
  ctx: AppContext,
  payload: JobPayload<'dataset.ingest'>,
  reportProgress: ReportProgress,
  opts: IngestOptions = {},
): Promise<void> {
  const upload = await findUpload(ctx.db, payload.uploadId);
  if (!upload || upload.state !== 'parsing') return; // deleted meanwhile, or already handled
  await beginAttempt(ctx.db, upload.id);
  const progress = async (fraction: number, step: string) => {
    await setParseProgress(ctx.db, upload.id, fraction);
    await reportProgress({ fraction, step });
  };
  try {
    await progress(0.05, 'read');
    const dataFiles = upload.files.filter((f) => f.role === 'data');
    // Reading is the long part: its progress is the share of the originals read so far (0.05–0.6).
    const totalBytes = Math.max(1, dataFiles.reduce((a, f) => a + f.size, 0));
    let readBytes = 0;
    let lastReport = 0;
    let reported: Promise<void> = Promise.resolve(); // one progress write at a time, awaited below
    const onBytes = (n: number) => {
      readBytes += n;
      const now = Date.now();
      if (now - lastReport < 500) return;
      lastReport = now;
      const fraction = 0.05 + 0.55 * Math.min(1, readBytes / totalBytes);
      reported = reported.then(() => progress(fraction, 'read')).catch(() => {});
    };
    const sources = dataFiles.map((f) => storageSource(ctx.storage, rawFileKey(upload.id, f.idx), f.name, f.size, onBytes));
    const dataset = await readDataset({ name: upload.sampleName, entries: sources }).finally(() => reported);
    await progress(0.6, 'properties');
    const properties = await computeProperties(dataset, opts.geneListsDir);
    await progress(0.7, 'write');
    const datasetSize = await writeCanonical(ctx.storage, upload, dataset, properties);
    await markCompleted(ctx.db, upload.id, { format: dataset.format, properties, usable: properties.usable, datasetSize });
    await reportProgress({ fraction: 1, step: 'done' });
  } catch (e) {
    if (isFormatError(e)) {
      await markFailed(ctx.db, upload.id, `format.${e.code}`, e.params, false);
    } else {
      const detail = e instanceof Error ? e.message : String(e);
      await markFailed(ctx.db, upload.id, 'files.failed.crash', { detail: detail.slice(0, 300) }, true);
    }
  }
}

/** A ByteSource over a storage object (range reads; works for local and S3 storage). */
export function storageSource(storage: Storage, key: string, name: string, size: number, onBytes: (n: number) => void = () => {}): ByteSource {
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

/** SPEC §3 file properties + §5 cell limits. */
export async function computeProperties(d: Dataset, geneListsDir: string | undefined): Promise<FileProperties> {
  const { nCells, nGenes, indptr, data } = d.counts;
  const totals = new Float64Array(nCells);
  for (let j = 0; j < nCells; j++) {
    let s = 0;
    for (let k = indptr[j]!; k < indptr[j + 1]!; k++) s += data[k]!;
    totals[j] = s;
  }
  const sorted = Float64Array.from(totals).sort();
  const total = totals.reduce((a, b) => a + b, 0);
  const median = nCells === 0 ? 0 : nCells % 2 ? sorted[(nCells - 1) / 2]! : (sorted[nCells / 2 - 1]! + sorted[nCells / 2]!) / 2;
  const usable = nCells > LIMITS.minCellsPerSample && nCells < LIMITS.maxCellsPerSample;
  const match = matchReference(d, await loadGeneReferences(geneListsDir));
  return {
    ...match,
    cells: nCells,
    genes: nGenes,
    umi: { total, min: sorted[0] ?? 0, median, mean: nCells ? total / nCells : 0, max: sorted[nCells - 1] ?? 0 },
    usable,
    unusableReasonKey: usable ? null : 'files.unusable.cells',
    warnings: d.warnings,
  };
}

/** Writes the canonical dataset and manifest.json (shape, species, content hash); returns bytes written. */
async function writeCanonical(storage: Storage, upload: UploadRecord, d: Dataset, p: FileProperties): Promise<number> {
  const obs = Object.fromEntries(Object.entries(d.cells.columns));
  const h5ad = await writeH5ad({ counts: d.counts, genes: d.genes, barcodes: d.cells.barcodes, obs, obsm: d.embeddings });
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
    metadataFiles: upload.files.filter((f) => f.role === 'metadata').map((f) => ({ name: f.name, key: rawFileKey(upload.id, f.idx) })),
    createdAt: new Date().toISOString(),
  };
  const manifestBytes = new TextEncoder().encode(JSON.stringify(manifest, null, 2));
  await storage.put(`${prefix}manifest.json`, manifestBytes);
  return size + manifestBytes.length;
}
