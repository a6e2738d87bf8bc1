import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PLATE_PRESET } from '@cellcloud/contracts/analysis-params';
import { looksPlateBased, type SampleShape } from '@cellcloud/contracts/wizard';
import { detectSpecies, readDataset, summarizeCounts } from '@cellcloud/formats';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { runAnalysis, type AnalysisResult } from '../run-analysis';
import type { ResourceReader } from '../tasks/types';
import type { SampleInput } from '../validate';
import { writeOutputs } from '../write-outputs';
import { parseArgs, sampleName, UsageError, type AnalyzeArgs } from './args';
import { directorySink } from './fs-sink';
import { defaultResourcesDir, nodeResourceReader } from './node-resources';
import { parseObsFile } from './obs-file';
import { progressBar, StepClock } from './progress-bar';
import { runOutOfCore, useOutOfCore } from './out-of-core';
import { writeStreamedOutputs } from '../stream/write-streamed';

async function loadParams(file: string | undefined): Promise<Record<string, unknown>> {
  if (!file) return {};
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new UsageError(
      `Cannot read the parameter file ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}.`,
    );
  });
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new UsageError(`Parameter file ${file} is not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * The wizard's automatic annotation of a finished pipeline result, before the outputs are written
 * (the annotate task of packages/tasks: the engine never imports it, so its CLI entry passes it):
 * adds its levels to `result.obs`, returns lines to log and files to write under `artifacts/`.
 */
export type AnalyzeAnnotation = (
  result: AnalysisResult,
  resources: ResourceReader,
) => Promise<{ log: string[]; artifacts: Record<string, Uint8Array> }>;

/** `cellcloud analyze …` (args.ts USAGE); the bin starts it from packages/tasks/src/_cli/main.ts. */
export async function analyzeCommand(argv: string[], annotate?: AnalyzeAnnotation): Promise<number> {
  const args = parseArgs(argv);
  const params = await loadParams(args.params);
  const log = (msg: string) => !args.quiet && process.stderr.write(`${msg}\n`);
  const clock = args.timings ? new StepClock() : undefined; // --timings (docs/benchmarks/cli.md)
  clock?.mark('read');
  if (await useOutOfCore(args.inputs, args.outOfCore, params))
    return analyzeOutOfCore(args, params, log, clock);
  const samples: SampleInput[] = [];
  const shapes: SampleShape[] = [];
  for (const input of args.inputs) {
    const t0 = performance.now();
    // as the upload does: non-integer values (TPM, expected counts, log-normalized) are real in dense tables
    const dataset = await readDataset(await pathBundle(path.resolve(input)), {
      nonIntegerFormats: ['dense-text'],
    });
    const sum = summarizeCounts(dataset.counts);
    shapes.push({
      cells: sum.cells,
      umi: { median: sum.umiMedianPerCell },
      ...(dataset.valueKind ? { valueKind: dataset.valueKind } : {}),
    });
    const guess = detectSpecies(dataset.genes);
    const name = sampleName(input);
    samples.push({ name, dataset, ...(guess.species !== 'unknown' ? { species: guess.species } : {}) });
    log(
      `read ${name}: ${dataset.counts.nCells} cells × ${dataset.counts.nGenes} genes (${dataset.format}, ${guess.species}, ${dataset.valueKind ?? 'counts'}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    for (const w of dataset.warnings) log(`  note: ${w}`);
  }
  if (params.species === undefined && samples[0]?.species) params.species = samples[0].species;
  // The wizard's automatic choice (contracts/wizard.ts): plate-based samples get the plate preset
  // under whatever the parameter file sets.
  if (looksPlateBased(shapes)) {
    for (const [k, v] of Object.entries(PLATE_PRESET)) if (!(k in params)) params[k] = v;
    log(
      'plate-based samples (deep, few cells): the plate preset applies (docs/methods/import-formats.md#plate-based-data)',
    );
  }
  // as the wizard does: log-normalized values have no raw counts for Scrublet or DecontX
  if (shapes.some((s) => s.valueKind === 'logNormalized')) {
    params.doubletDetectionAndRemoval ??= false;
    params.ambientRnaRemoval ??= { enabled: false };
    log(
      'log-normalized values: normalization skipped; doublet detection and ambient RNA removal off unless the parameter file sets them',
    );
  }
  const bar = args.quiet ? undefined : progressBar();
  const result = await runAnalysis(samples, params, clock ? clock.wrap(bar) : bar);
  clock?.mark('write'); // with --obs and the annotation when asked for
  await attachObs(args.obs, result, log);
  let artifacts: Record<string, Uint8Array> = {};
  if (result.params.chooseAnnotationType !== 'none' && annotate) {
    const annotated = await annotate(result, nodeResourceReader(defaultResourcesDir()));
    annotated.log.forEach(log);
    artifacts = annotated.artifacts;
  }
  log(
    `${result.counts.nCells} cells after QC, ${result.clusterLabels.length} clusters, ${result.qc.nPcsUsed} PCs; writing ${args.out}`,
  );
  await writeOutputs(result, directorySink(args.out));
  for (const [name, bytes] of Object.entries(artifacts))
    await directorySink(args.out).write(`artifacts/${name}`, bytes);
  log(`done: ${path.join(args.out, 'analysis.h5ad')}, markers.csv, artifacts/`);
  if (clock) process.stderr.write(clock.report());
  return 0;
}

/** `--obs` files: per-cell columns joined to the result's cells by barcode, with what matched. */
async function attachObs(
  files: string[],
  result: Pick<AnalysisResult, 'barcodes' | 'obs'>,
  log: (msg: string) => void,
): Promise<void> {
  for (const file of files) {
    const parsed = parseObsFile(await readFile(file, 'utf8'), result.barcodes);
    Object.assign(result.obs, parsed.columns);
    log(
      `--obs ${file}: ${Object.keys(parsed.columns).join(', ') || 'no columns'}; ${parsed.matched} of ${result.barcodes.length} cells matched` +
        (parsed.unmatched.length
          ? `, ${parsed.unmatched.length} barcode(s) match no cell after QC (e.g. ${parsed.unmatched.slice(0, 3).join(', ')})`
          : ''),
    );
  }
}

/** `analyze` on count stores (cli/out-of-core.ts): bounded memory for large inputs. */
async function analyzeOutOfCore(
  args: AnalyzeArgs,
  params: Record<string, unknown>,
  log: (msg: string) => void,
  clock: StepClock | undefined,
): Promise<number> {
  log('out-of-core: each input is written to a count store and analysed from there (docs/engine-scaling.md)');
  const bar = args.quiet ? undefined : progressBar();
  const run = await runOutOfCore(args.inputs, params, log, clock ? clock.wrap(bar) : bar);
  try {
    const { result } = run;
    clock?.mark('write');
    await attachObs(args.obs, result, log);
    if (result.params.chooseAnnotationType !== 'none')
      log(
        'note: the automatic cell annotation is not run on the out-of-core path yet; run `cellcloud task annotate` on the result',
      );
    log(
      `${result.counts.nCells} cells after QC, ${result.clusterLabels.length} clusters, ${result.qc.nPcsUsed} PCs; writing ${args.out}`,
    );
    await writeStreamedOutputs(result, directorySink(args.out));
    log(`done: ${path.join(args.out, 'analysis.h5ad')}, markers.csv, artifacts/`);
    if (clock) process.stderr.write(clock.report());
    return 0;
  } finally {
    await run.close();
  }
}
