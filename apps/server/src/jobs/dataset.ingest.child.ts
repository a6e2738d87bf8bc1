import { isFormatError, readDataset, setReadLimits } from '@cellcloud/formats';
import type { FileProperties } from '@cellcloud/contracts';
import { computeProperties, storageSource, writeCanonical, type IngestFile } from './dataset.ingest';
import { attachMetadataFiles } from './dataset.metadata';
import type { ChildMain } from './runner-child-process';

/**
 * Child entry of `dataset.ingest` (issue 12): the upload is read, checked and converted here, in
 * the memory-capped child process, never in the API/worker process. Reader limits (decompressed
 * bytes, declared sizes) come from the configuration. A reader's FormatError is returned as a
 * value (`{ formatError }`) so the parent stores its code and parameters for a translated message.
 */
export interface IngestChildInput {
  uploadId: string;
  sampleName: string;
  dataFiles: IngestFile[];
  metadataFiles: { name: string; key: string }[];
  geneListsDir?: string;
}

export type IngestChildResult =
  | { ok: true; format: string; properties: FileProperties; datasetSize: number }
  | { ok: false; formatError: { code: string; params: Record<string, string | number> } };

const main: ChildMain<IngestChildInput> = async (input, io): Promise<IngestChildResult> => {
  const { ingest } = io.config;
  setReadLimits({ maxDecompressedBytes: ingest.maxDecompressedBytes, maxEntries: ingest.maxEntries });
  const storage = await io.storage();
  io.progress(0.05, 'read');
  const totalBytes = Math.max(
    1,
    input.dataFiles.reduce((a, f) => a + f.size, 0),
  );
  let readBytes = 0;
  let last = 0;
  const onBytes = (n: number) => {
    readBytes += n;
    const now = Date.now();
    if (now - last < 500) return;
    last = now;
    io.progress(0.05 + 0.55 * Math.min(1, readBytes / totalBytes), 'read');
  };
  try {
    const sources = input.dataFiles.map((f) => storageSource(storage, f.key, f.name, f.size, onBytes));
    // Non-integer values are real in dense tables (TPM, expected counts): accepted there and flagged.
    const dataset = await readDataset(
      { name: input.sampleName, entries: sources },
      { nonIntegerFormats: ['dense-text'] },
    );
    if (input.metadataFiles.length) await attachMetadataFiles(storage, input.metadataFiles, dataset); // issue 13
    io.progress(0.6, 'properties');
    const properties = await computeProperties(dataset, input.geneListsDir);
    io.progress(0.7, 'write');
    const datasetSize = await writeCanonical(
      storage,
      { id: input.uploadId, sampleName: input.sampleName, metadataFiles: input.metadataFiles },
      dataset,
      properties,
    );
    return { ok: true, format: dataset.format, properties, datasetSize };
  } catch (e) {
    if (isFormatError(e)) return { ok: false, formatError: { code: e.code, params: e.params } };
    throw e;
  }
};

export default main;
