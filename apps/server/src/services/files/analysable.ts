import type { FileProperties } from '@cellcloud/contracts';
import type { AppContext } from '../../context';
import { listCompletedUsable } from '../../db/repos/uploads';
import { datasetPrefix } from '../../storage/tus-store';

export interface AnalysableSample {
  uploadId: string;
  sampleName: string;
  format: string;
  properties: FileProperties;
  /** Storage key of the canonical dataset (h5ad) and of its manifest. */
  datasetKey: string;
  manifestKey: string;
}

/**
 * SPEC §4: only uploads that were parsed and show Completed (and have 30 < cells < 100,000)
 * may be analysed. The analysis wizard lists its selectable samples with this.
 */
export async function listAnalysableSamples(ctx: AppContext, userId: string): Promise<AnalysableSample[]> {
  const rows = await listCompletedUsable(ctx.db, userId);
  return rows.map((r) => ({
    uploadId: r.id,
    sampleName: r.sampleName,
    format: r.format ?? r.formatHint,
    properties: r.properties as FileProperties,
    datasetKey: `${datasetPrefix(r.id)}counts.h5ad`,
    manifestKey: `${datasetPrefix(r.id)}manifest.json`,
  }));
}
