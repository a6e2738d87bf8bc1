import type { ChildMain } from './runner-child-process';
import { readStoredResult } from './runner-child-io';
import { seuratBundle } from './download.seurat-bundle';

/** Child entry of `download.export` for the Seurat bundle: reads analysis.h5ad, writes the zip to `outKey`. */
export interface SeuratExportInput {
  h5adKey: string;
  outKey: string;
}

const main: ChildMain<SeuratExportInput> = async (task, io) => {
  const storage = await io.storage();
  io.progress(0.05, 'read');
  const ds = await readStoredResult(storage, task.h5adKey);
  io.progress(0.4, 'convert');
  const zip = seuratBundle(ds);
  io.progress(0.9, 'write');
  await storage.put(task.outKey, zip);
  return undefined;
};
export default main;
