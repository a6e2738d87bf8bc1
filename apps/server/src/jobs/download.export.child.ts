import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locale } from '@cellcloud/contracts';
import type { CellColumn } from '@cellcloud/formats/matrix';
import type { UnsValue } from '@cellcloud/formats/write-h5ad';
import { extraColumn, type ExtraObsSource } from './extra-obs';
import { storageOutputSink } from './output-sink';
import { withStoredFile } from './stored-file';
import type { ChildMain } from './runner-child-process';
import { writeSeuratBundle } from './download.seurat-bundle';
import type { TableEntry } from './download.tables';
import { zipToStorage } from './download.zip-out';
import type { FiguresSource } from './figures/read';

/**
 * Child entry of `download.export` for the h5ad and the Seurat bundle, with the result's other
 * per-cell columns (`extraObs`, each under its `column` name: saved annotation levels, task columns
 * such as annot_auto / annot_sub; issue 13) added to the stored obs. analysis.h5ad is streamed
 * from storage into a local temporary file and read from there range by range (withStoredFile:
 * never held in memory). h5ad: copied a chunk at a time with the streaming writer
 * (writeH5adWithObs) into a local file uploaded to `outKey`. Seurat: streams the zip into a
 * temporary local file (the counts sliced from the open file a block of cells at a time) and
 * uploads that file as a stream to `outKey`.
 */
export type ExportInput =
  | {
      kind: 'h5ad' | 'seurat';
      h5adKey: string;
      outKey: string;
      nCells: number;
      extraObs: (ExtraObsSource & { column: string })[];
      /** uns elements added to the h5ad (the curated levels' provenance) */
      uns?: Record<string, UnsValue>;
    }
  | { kind: 'tables'; outKey: string; lang: Locale; resultName: string; tables: TableEntry[] }
  | { kind: 'figures'; outKey: string; lang: Locale; resultName: string; figures: FiguresSource };

const main: ChildMain<ExportInput> = async (task, io) => {
  const storage = await io.storage();
  io.progress(0.05, 'read');
  if (task.kind === 'tables') {
    const { writeTables } = await import('./download.tables');
    await zipToStorage(storage, task.outKey, async (zip) => {
      await writeTables(
        zip,
        task.tables,
        (k) => storage.getBytes(k),
        task,
        (f) => io.progress(0.05 + 0.9 * f, 'write'),
      );
    });
    return undefined;
  }
  if (task.kind === 'figures') {
    // the PNGs' CJK font: fontconfig must know CELLCLOUD_CJK_FONT_DIR before sharp loads
    const { useCjkFontDir } = await import('./figures/render');
    useCjkFontDir();
    const { readFigureData } = await import('./figures/read');
    const { writeFigures } = await import('./download.figures');
    const data = await readFigureData(storage, task.figures);
    io.progress(0.2, 'render');
    await zipToStorage(storage, task.outKey, async (zip) => {
      await writeFigures(zip, data, task, (f) => io.progress(0.2 + 0.75 * f, 'render'));
    });
    return undefined;
  }
  const obs: Record<string, CellColumn> = {};
  for (const s of task.extraObs) {
    const col = await extraColumn(storage, s, task.nCells);
    if (col) obs[s.column] = col;
  }
  if (task.kind === 'h5ad') {
    const { writeH5adWithObs } = await import('@cellcloud/formats/h5ad-with-obs');
    const file = await storageOutputSink(storage, '').open!(task.outKey);
    let written = false;
    try {
      await withStoredFile(storage, task.h5adKey, (source) => {
        io.progress(0.2, 'write');
        return writeH5adWithObs(source, obs, file, 'analysis.h5ad', task.uns ?? {});
      });
      written = true;
    } finally {
      await file.close();
      if (!written) await storage.delete(task.outKey).catch(() => {});
    }
    return undefined;
  }
  // the counts are sliced from the open file a block of cells at a time: one block is in memory,
  // never the decoded matrix nor the file's bytes
  const { withH5adCellBlocks } = await import('@cellcloud/formats/h5ad-cell-blocks');
  io.progress(0.4, 'convert');
  const dir = mkdtempSync(path.join(tmpdir(), 'cellcloud-seurat-'));
  try {
    const file = path.join(dir, 'bundle.zip');
    const fd = openSync(file, 'w');
    try {
      await withStoredFile(storage, task.h5adKey, (source) =>
        withH5adCellBlocks(source, 'analysis.h5ad', (ds) => {
          Object.assign(ds.cells.columns, obs);
          writeSeuratBundle(ds, (chunk) => {
            for (let done = 0; done < chunk.length;) done += writeSync(fd, chunk, done);
          });
        }),
      );
    } finally {
      closeSync(fd);
    }
    io.progress(0.9, 'write');
    await storage.put(task.outKey, createReadStream(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return undefined;
};
export default main;
