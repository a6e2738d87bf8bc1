import type { FileProperties } from '@cellcloud/contracts';
import type { AppContext } from '../../context';
import { listCompletedUsable } from '../../db/repos/uploads';
import { publicDatasetsRepo } from '../../db/repos/public-datasets';
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
 * docs/product/states.md#uploads: only uploads that were parsed and show Completed (and have 30 < cells < 100,000)
 * may be analysed. The analysis wizard lists its selectable samples with this.
 * Public database datasets (issue 20) follow as samples `public:<datasetId>` (shared, read-only,
 * stored under public/<id>/v<version>/) unless `includePublic` is false.
 */
export async function listAnalysableSamples(
  ctx: AppContext,
  userId: string,
  opts: { includePublic?: boolean } = {},
): Promise<AnalysableSample[]> {
  const rows = await listCompletedUsable(ctx.db, userId);
  const pub =
    opts.includePublic === false
      ? []
      : (await publicDatasetsRepo.listSamples(ctx.db)).map((p) => ({
          uploadId: `public:${p.id}`,
          sampleName: p.title,
          format: 'h5ad',
          properties: p.properties as unknown as FileProperties,
          datasetKey: `${p.storagePrefix}counts.h5ad`,
          manifestKey: `${p.storagePrefix}manifest.json`,
        }));
  const local = rows.map((r) => ({
    uploadId: r.id,
    sampleName: r.sampleName,
    format: r.format ?? r.formatHint,
    properties: r.properties as FileProperties,
    datasetKey: `${datasetPrefix(r.id)}counts.h5ad`,
    manifestKey: `${datasetPrefix(r.id)}manifest.json`,
  }));
  return [...local, ...pub];
}
