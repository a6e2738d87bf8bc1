import type { AnalysisParams } from '@cellcloud/contracts';
import type { ChildMain } from './runner-child-process';
import { loadSamples } from './runner-child-io';

/** Child entry of `analysis.preprocess`: QC evaluation of the draft's samples, JSON to `outKey`. */
export interface PreprocessChildInput {
  samples: { name: string; datasetKey: string }[];
  params: unknown;
  outKey: string;
}

const main: ChildMain<PreprocessChildInput> = async (input, io) => {
  const storage = await io.storage();
  io.progress(0.05, 'inputs');
  const samples = await loadSamples(storage, input.samples);
  io.progress(0.4, 'qc');
  const { evaluateCellFiltering } = await import('./analysis.preprocess.compute');
  const result = evaluateCellFiltering(samples, input.params as AnalysisParams);
  await storage.put(input.outKey, new TextEncoder().encode(JSON.stringify(result)));
  return undefined;
};
export default main;
