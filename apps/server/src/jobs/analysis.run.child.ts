import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runAnalysis, writeOutputs } from '@cellcloud/engine';
import { storageCheckpoints } from './checkpoint-store';
import { type OutputsInProgress, startOutputs } from '@cellcloud/engine/write-outputs';
import { defaultResourcesDir, nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { transferPublicLabels } from '@cellcloud/engine/label-transfer';
import { carryInputColumns } from '@cellcloud/engine/carry-input';
import { ANNOTATION_ARTIFACT, annotateAnalysisResult } from '@cellcloud/tasks/in-analysis';
import { storageOutputSink } from './output-sink';
import type { ChildIo, ChildMain } from './runner-child-process';
import { loadSamples, storeSamples } from './runner-child-io';

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
  /**
   * Run out of core (analysis.run chooses it from the input cells, docs/engine-scaling.md
   * "Out-of-core path"): the samples are written to count stores in a scratch folder and
   * analysed by runAnalysisStreamed; no checkpoints on this path.
   */
  streamed?: boolean;
}

/** The child's result: the steps taken from an earlier attempt's checkpoint. */
export interface AnalysisChildResult {
  resumed: string[];
}

const main: ChildMain<AnalysisChildInput> = async (input, io) => {
  const storage = await io.storage();
  if (input.streamed) return runStreamed(input, io, storage);
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

/**
 * The out-of-core job (issue 33): stored samples → count stores in a scratch folder under the OS
 * temporary folder (removed at the end, also on failure) → runAnalysisStreamed → the same output
 * files as the in-memory path, written streamed from the stores. Not on this path yet
 * (docs/engine-scaling.md "Out-of-core path"): automatic annotation (its annotation.json carries a
 * translated failure the Cell Annotations tab shows), public-label transfer (skipped, noted on
 * stderr) and checkpoints (a retry starts over).
 */
async function runStreamed(
  input: AnalysisChildInput,
  io: ChildIo,
  storage: Awaited<ReturnType<ChildIo['storage']>>,
): Promise<AnalysisChildResult> {
  const { runAnalysisStreamed } = await import('@cellcloud/engine/stream/run-streamed');
  const { startStreamedOutputs } = await import('@cellcloud/engine/stream/write-streamed');
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'cellcloud-stores-'));
  try {
    io.progress(0.01, 'inputs');
    const n = input.samples.length;
    const stores = await storeSamples(storage, input.samples, scratch, (done) =>
      io.progress(0.01 + (0.09 * done) / n, 'inputs'),
    );
    try {
      const result = await runAnalysisStreamed(stores.samples, input.params, (p) =>
        io.progress(0.1 + 0.8 * p.fraction, p.step),
      );
      // the samples' own columns and embeddings on the kept cells, as runAnalysis' result has them
      carryInputColumns(stores.carry, result.barcodes, result.obs, result.embeddings);
      if (input.samples.some((s) => s.reference))
        process.stderr.write('label transfer skipped: not available on the out-of-core path yet\n');
      io.progress(0.92, 'write');
      const sink = storageOutputSink(storage, input.outPrefix);
      const outputs = await startStreamedOutputs(result, sink);
      await outputs.finish(result);
      if (result.params.chooseAnnotationType !== 'none')
        await storage.put(
          `${input.outPrefix}artifacts/${ANNOTATION_ARTIFACT}`,
          new TextEncoder().encode(JSON.stringify({ failure: OUT_OF_CORE_ANNOTATION })),
        );
    } finally {
      stores.close();
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return { resumed: [] };
}

/**
 * annotation.json of an out-of-core analysis: the annotate task's translated message
 * (packages/tasks/src/annotate/messages, `failures.outOfCore`), shown by the Cell Annotations tab.
 */
export const OUT_OF_CORE_ANNOTATION = { key: 'annotate.outOfCore', params: {} };
