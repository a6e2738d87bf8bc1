import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileSource } from '@cellcloud/formats/node-sources';
import { readDenseText } from '@cellcloud/formats/read-dense-text';
import { SHARED_DATA_DIR } from '@cellcloud/testkit';
import { resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';

/** The inferCNV oligodendroglioma example (shared data) as a ResultHandle with its annotations as `cell_type`. */
export const DIR = 'infercnv_oligodendroglioma';
export const MATRIX = `${DIR}/oligodendroglioma_expression_downsampled.counts.matrix.gz`;
export const ANNOT = `${DIR}/oligodendroglioma_annotations_downsampled.txt`;

export async function oligo() {
  const ds = await readDenseText(await fileSource(path.join(SHARED_DATA_DIR, MATRIX)), {
    allowNonInteger: true,
  });
  const ann = new Map(
    readFileSync(path.join(SHARED_DATA_DIR, ANNOT), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('\t') as [string, string]),
  );
  const types = ds.cells.barcodes.map((b) => ann.get(b) ?? 'NA');
  return resultHandleFromDataset(ds, {
    species: 'human',
    extraObs: { cell_type: { kind: 'categorical', values: types } },
  });
}
