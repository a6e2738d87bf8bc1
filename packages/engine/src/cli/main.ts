import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { detectSpecies, readDataset } from '@cellcloud/formats';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { runAnalysis } from '../run-analysis';
import { ANNOTATION_ARTIFACT, annotateAnalysisResult } from '../tasks/annotate/in-analysis';
import type { SampleInput } from '../validate';
import { writeOutputs } from '../write-outputs';
import { parseArgs, sampleName, USAGE, UsageError } from './args';
import { runCli } from './exit';
import { directorySink } from './fs-sink';
import { defaultResourcesDir, nodeResourceReader } from './node-resources';
import { parseObsFile } from './obs-file';
import { progressBar } from './progress-bar';

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

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const params = await loadParams(args.params);
  const log = (msg: string) => !args.quiet && process.stderr.write(`${msg}\n`);
  const samples: SampleInput[] = [];
  for (const input of args.inputs) {
    const t0 = performance.now();
    const dataset = await readDataset(await pathBundle(path.resolve(input)));
    const guess = detectSpecies(dataset.genes);
    const name = sampleName(input);
    samples.push({ name, dataset, ...(guess.species !== 'unknown' ? { species: guess.species } : {}) });
    log(
      `read ${name}: ${dataset.counts.nCells} cells × ${dataset.counts.nGenes} genes (${dataset.format}, ${guess.species}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    for (const w of dataset.warnings) log(`  note: ${w}`);
  }
  if (params.species === undefined && samples[0]?.species) params.species = samples[0].species;
  const result = await runAnalysis(samples, params, args.quiet ? undefined : progressBar());
  for (const file of args.obs) {
    const parsed = parseObsFile(await readFile(file, 'utf8'), result.barcodes);
    Object.assign(result.obs, parsed.columns);
    log(
      `--obs ${file}: ${Object.keys(parsed.columns).join(', ') || 'no columns'}; ${parsed.matched} of ${result.counts.nCells} cells matched` +
        (parsed.unmatched.length
          ? `, ${parsed.unmatched.length} barcode(s) match no cell after QC (e.g. ${parsed.unmatched.slice(0, 3).join(', ')})`
          : ''),
    );
  }
  let annotationArtifact: Uint8Array | undefined;
  if (result.params.chooseAnnotationType !== 'none') {
    const annotated = await annotateAnalysisResult(result, nodeResourceReader(defaultResourcesDir()));
    if (annotated?.summary)
      log(
        `annotation: ${annotated.summary.reference}, ${annotated.summary.labels.length} labels (obs annot_auto…)`,
      );
    if (annotated?.failure) log(`annotation skipped: ${annotated.failure.message}`);
    annotationArtifact = annotated?.artifact;
  }
  log(
    `${result.counts.nCells} cells after QC, ${result.clusterLabels.length} clusters, ${result.qc.nPcsUsed} PCs; writing ${args.out}`,
  );
  await writeOutputs(result, directorySink(args.out));
  if (annotationArtifact)
    await directorySink(args.out).write(`artifacts/${ANNOTATION_ARTIFACT}`, annotationArtifact);
  log(`done: ${path.join(args.out, 'analysis.h5ad')}, markers.csv, artifacts/`);
  return 0;
}

runCli(main(process.argv.slice(2)), USAGE);
