import { definition, type AnnotateSummary } from '../contract';
import type { AnalysisResult } from '@cellcloud/engine/run-analysis';
import { isTaskError } from '@cellcloud/engine/tasks/kit';
import { MemorySink } from '@cellcloud/engine/tasks/kit';
import { resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import { speciesKey } from '@cellcloud/contracts/tasks/define';
import type { ResourceReader } from '@cellcloud/engine/tasks/kit';
import type { AnalyzeAnnotation } from '@cellcloud/engine/cli/kit';
import { engine } from './index';
import { REFERENCES } from './reference';

/** Written as `artifacts/annotation.json` next to the explorer artifacts (the Cell Annotations tab reads it). */
export const ANNOTATION_ARTIFACT = 'annotation.json';

export interface InAnalysisAnnotation {
  summary?: AnnotateSummary;
  /** `annotation.json`: { summary, markers (label → reference marker genes), dotplot, clusterLabels }, or { failure: { key, params } } */
  artifact?: Uint8Array;
  /** Why annotation was skipped (translatable task message key + params), when it failed. */
  failure?: { key: string; message: string; params: Record<string, string | number> };
}

/**
 * The wizard's "Cell annotation: Automatic" (issue 13): runs the `annotate` task on a finished
 * pipeline result, before the outputs are written, and adds its per-cell levels (`annot_auto`,
 * `annot_auto_cluster`, scores…) to `result.obs` — so analysis.h5ad, the explorer artifacts and
 * every group picker have them without another click. Species from the analysis, tissue from
 * `referenceTissue`, `reference` when it names a bundled reference. A user-fixable failure
 * (no tissue, no matching types…) leaves the analysis without annotation and is returned; other
 * errors propagate.
 */
export async function annotateAnalysisResult(
  result: AnalysisResult,
  resources: ResourceReader,
  onProgress: (fraction: number) => void = () => {},
): Promise<InAnalysisAnnotation | undefined> {
  const p = result.params;
  if (p.chooseAnnotationType === 'none') return undefined;
  const handle = resultHandleFromDataset(
    {
      counts: result.counts,
      genes: { ids: result.geneIds, symbols: result.geneSymbols },
      cells: { barcodes: result.barcodes, columns: result.obs },
      embeddings: result.embeddings,
    },
    { species: result.species },
  );
  const normalized = result.normalized;
  const withNorm = { ...handle, normalized: () => normalized };
  const reference = REFERENCES.some((r) => r.id === p.reference) ? p.reference : 'auto';
  const sink = new MemorySink();
  try {
    const summary = await engine.run({
      result: withNorm,
      params: definition.params.parse({
        species: speciesKey(result.species),
        tissue: p.referenceTissue ?? '',
        reference,
      }),
      onProgress: (e) => onProgress(e.fraction),
      sink,
      resources,
    });
    for (const [key, col] of sink.cells) result.obs[key] = col;
    const artifact = new TextEncoder().encode(
      JSON.stringify({
        summary,
        markers: sink.datas.get('markers') ?? {},
        dotplot: sink.datas.get('dotplot') ?? null,
        clusterLabels: sink.tables.get('cluster_labels') ?? null,
      }),
    );
    return { summary, artifact };
  } catch (e) {
    if (isTaskError(e)) {
      // the tab shows the failure in the reader's language (message keys of the annotate definition)
      const artifact = new TextEncoder().encode(
        JSON.stringify({ failure: { key: e.key, params: e.params } }),
      );
      return { failure: { key: `task.${e.key}`, message: e.message, params: e.params }, artifact };
    }
    throw e;
  }
}

/** The CLI's `cellcloud analyze` hook (engine cli/main.ts): annotates, logs, writes annotation.json. */
export const annotateInAnalysis: AnalyzeAnnotation = async (result, resources) => {
  const annotated = await annotateAnalysisResult(result, resources);
  const log: string[] = [];
  if (annotated?.summary)
    log.push(
      `annotation: ${annotated.summary.reference}, ${annotated.summary.labels.length} labels (obs annot_auto…)`,
    );
  if (annotated?.failure) log.push(`annotation skipped: ${annotated.failure.message}`);
  const artifacts: Record<string, Uint8Array> = {};
  if (annotated?.artifact) artifacts[ANNOTATION_ARTIFACT] = annotated.artifact;
  return { log, artifacts };
};
