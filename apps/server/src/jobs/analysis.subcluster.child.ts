import type { ChildAnalysisParams } from '@cellcloud/contracts/analysis-params';
import { runSubcluster, writeOutputs } from '@cellcloud/engine';
import { storageOutputSink } from './output-sink';
import type { ChildMain } from './runner-child-process';
import { readStoredResult, readWords } from './runner-child-io';

/** Child entry of `analysis.subcluster`: the parent's stored counts restricted to the cells at `cellsKey`. */
export interface SubclusterChildInput {
  name: string;
  h5adKey: string;
  /** Uint32 parent cell indices. */
  cellsKey: string;
  parentParams: unknown;
  child: unknown;
  outPrefix: string;
}

const main: ChildMain<SubclusterChildInput> = async (task, io) => {
  const storage = await io.storage();
  const ds = await readStoredResult(storage, task.h5adKey);
  const cells = await readWords(storage, task.cellsKey, Uint32Array);
  const result = await runSubcluster(
    {
      name: task.name,
      counts: ds.counts,
      genes: ds.genes,
      barcodes: ds.cells.barcodes,
      cells,
      parentParams: task.parentParams,
      child: task.child as Partial<ChildAnalysisParams>,
      obs: ds.cells.columns, // the parent's annotation levels carry into the child (issue 13)
      // the parent's (batch-corrected if any) PCs, used when reDimensionalityReduction is false (issue 14)
      pcs: ds.embeddings['X_pca_harmony'] ?? ds.embeddings['X_pca_mnn'] ?? ds.embeddings['X_pca'],
    },
    (p) => io.progress(0.02 + 0.88 * p.fraction, p.step),
  );
  io.progress(0.9, 'write');
  await writeOutputs(result, storageOutputSink(storage, task.outPrefix));
  return undefined;
};
export default main;
