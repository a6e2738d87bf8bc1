import { runAnalysis, writeOutputs } from '@cellcloud/engine';
import { storageCheckpoints } from './checkpoint-store';
import { type OutputsInProgress, startOutputs } from '@cellcloud/engine/write-outputs';
import { defaultResourcesDir, nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { transferPublicLabels } from '@cellcloud/engine/label-transfer';
import { ANNOTATION_ARTIFACT, annotateAnalysisResult } from '@cellcloud/tasks/in-analysis';
import { storageOutputSink } from './output-sink';
import type { ChildMain } from './runner-child-process';
import { loadSamples } from './runner-child-io';

/** Child entry of `analysis.run`: the pipeline on the stored samples, outputs under `outPrefix`. */
export interface AnalysisChildInput {
  species: string;
  /** `reference`: a public database dataset (its annotation levels are transferred onto the others). */
  samples: { name: string; group: string; datasetKey: string; reference?: boolean }[];
  params: unknown;
  outPrefix: string;
  /** Write the matrices while the embeddings compute (runner-child-budget chooseWriting); default true. */
  writeAlongside?: boolean;
  /**
   * Checkpoint after each finished step under `prefix` and resume from the last one saved under
   * the same `key` (the job's result cache key; the engine identity is added here). Issue 34.
   */
  checkpoint?: { prefix: string; key: string };
}

/** The child's result: the steps taken from an earlier attempt's checkpoint. */
export interface AnalysisChildResult {
  resumed: string[];
}

const main: ChildMain<AnalysisChildInput> = async (input, io) => {
  const storage = await io.storage();
  io.progress(0.01, 'inputs');
  const samples = await loadSamples(
    storage,
    input.samples.map((s) => ({ ...s, species: input.species })),
  );
  const sink = storageOutputSink(storage, input.outPrefix);
  // the matrices (h5ad X and layers, explorer expression chunks) are written while the embeddings
  // compute; per-cell columns (incl. the annotations below), embeddings and markers after
  let outputs: OutputsInProgress | undefined;
  const result = await runAnalysis(
    samples,
    input.params,
    (p) => io.progress(0.02 + 0.88 * p.fraction, p.step),
    {
      releaseSamples: true,
      checkpoint: input.checkpoint && storageCheckpoints(storage, input.checkpoint, io),
      whileEmbeddings:
        input.writeAlongside === false
          ? undefined
          : async (early) => {
              outputs = await startOutputs(early, sink);
            },
    },
  );
  // issue 20: public datasets' annot_full / annot_sub transferred onto the user's cells (kNN majority)
  const transfer = transferPublicLabels(
    result,
    input.samples.filter((s) => s.reference).map((s) => s.name),
  );
  // wizard "Cell annotation: Automatic" (issue 13): annot_auto… levels join the result before writing
  let annotationArtifact: Uint8Array | undefined;
  if (result.params.chooseAnnotationType !== 'none') {
    io.progress(0.9, 'annotation');
    const annotated = await annotateAnalysisResult(result, nodeResourceReader(defaultResourcesDir()), (f) =>
      io.progress(0.9 + 0.02 * f, 'annotation'),
    );
    if (annotated?.failure) process.stderr.write(`annotation skipped: ${annotated.failure.message}\n`);
    annotationArtifact = annotated?.artifact;
  }
  io.progress(0.92, 'write');
  await (outputs ? outputs.finish(result) : writeOutputs(result, sink));
  if (transfer)
    await storage.put(
      `${input.outPrefix}artifacts/label-transfer.json`,
      new TextEncoder().encode(JSON.stringify(transfer)),
    );
  if (annotationArtifact)
    await storage.put(`${input.outPrefix}artifacts/${ANNOTATION_ARTIFACT}`, annotationArtifact);
  const out: AnalysisChildResult = { resumed: result.resumed ?? [] };
  return out;
};
export default main;
