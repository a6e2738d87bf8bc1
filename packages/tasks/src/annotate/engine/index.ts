import type { AnnotateParams, AnnotateSummary } from '../contract';
import { estimateMemoryBytes } from '../memory';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import { categoricalLevel, selectCells } from '@cellcloud/engine/tasks/kit';
import { speciesKey } from '@cellcloud/contracts/tasks/define';
import type { EngineTask, ResultHandle, TaskRunContext } from '@cellcloud/engine/tasks/kit';
import { loadMarkerTypes, parseMarkerUpload } from './marker-lists';
import { resolveMarkerTypes, scoreMarkerTypes, type MarkerType } from './marker-score';
import { chooseReference, loadReference, REFERENCES } from './reference';
import { fillReferenceGaps } from './reference-gaps';
import { SingleRModel, type SingleRResult } from './singler';
import { lineageById, lineageOfLabel, LINEAGES, type LineageDef } from './subtypes';
import { writeAnnotationOutputs } from './outputs';

/** Species of the params (SPEC: must be chosen) — human or mouse, else the SPEC refusal. */
export function annotationSpecies(p: AnnotateParams): 'human' | 'mouse' {
  if (!p.species || !p.species.trim()) {
    throw new TaskError('annotate.speciesRequired', 'A reference species must be chosen for annotation.');
  }
  const s = speciesKey(p.species);
  if (s !== 'human' && s !== 'mouse') {
    throw new TaskError(
      'common.speciesHumanMouse',
      `This analysis supports human and mouse data only (the dataset is ${p.species}).`,
      {
        species: p.species,
      },
    );
  }
  return s;
}

function requireTissue(p: AnnotateParams): string {
  const t = p.tissue?.trim();
  if (!t) throw new TaskError('annotate.tissueRequired', 'Please specify tissue type.');
  return t;
}

export interface AutoAnnotation {
  /** Per cell: the reference's label (major type). */
  major: string[];
  /** Per cell: final automatic label (subtype where a lineage of docs/product/validation.md#subtype-annotation resolves it, else the major label). */
  final: string[];
  singleR: SingleRResult;
  cells: Uint32Array;
}

/** Groups cells by (cluster, lineage of their major label) and scores each group with the lineage's subtype panel. */
export function refineLineages(
  result: ResultHandle,
  cells: ArrayLike<number>,
  major: readonly string[],
  cluster: readonly string[],
  only?: LineageDef,
): {
  label: string[];
  groups: Map<string, { lineage: string; label: string; score: number; cells: number }>;
} {
  const label = [...major];
  const groups = new Map<string, { lineage: string; label: string; score: number; cells: number }>();
  const norm = result.normalized();
  for (const lin of only ? [only] : LINEAGES) {
    const idx: number[] = [];
    const groupOf: string[] = [];
    for (let i = 0; i < cells.length; i++) {
      if (only || lineageOfLabel(major[i]!) === lin) {
        idx.push(cells[i]!);
        groupOf.push(cluster[i]!);
      }
    }
    if (idx.length < 3) continue;
    const types = resolveMarkerTypes(lin.panel, result.geneIndex);
    if (types.length < 2) continue;
    const sc = scoreMarkerTypes(norm, idx, groupOf, types);
    const callOf = new Map(sc.call.map((c) => [c.group, c]));
    for (const c of sc.call)
      groups.set(`${c.group}\u0000${lin.id}`, {
        lineage: lin.id,
        label: c.label,
        score: c.score,
        cells: c.cells,
      });
    let k = 0;
    for (let i = 0; i < cells.length; i++) {
      if (only || lineageOfLabel(major[i]!) === lin) {
        const g = callOf.get(groupOf[k]!)!;
        if (g.label !== 'Unknown') label[i] = g.label;
        k++;
      }
    }
  }
  return { label, groups };
}

async function runAuto(ctx: TaskRunContext<AnnotateParams>): Promise<AnnotateSummary> {
  const t0 = performance.now();
  const { result, params: p, resources, onProgress } = ctx;
  const species = annotationSpecies(p);
  const tissue = requireTissue(p);
  const cluster = categoricalLevel(result, p.clusterKey);
  onProgress({ fraction: 0.02, step: 'reference' });
  const info = chooseReference(species, tissue, p.reference);
  if (info.species !== species) {
    throw new TaskError(
      'annotate.noMatchingTypes',
      `The reference ${info.id} is not a ${species} reference.`,
    );
  }
  const ref = await loadReference(resources, info.path);
  const model = new SingleRModel(ref, result.geneIndex, result.nGenes);
  if (model.nCommonGenes < 100) {
    throw new TaskError('annotate.tooFewGenes', `Only ${model.nCommonGenes} reference genes were found.`, {
      genes: model.nCommonGenes,
    });
  }
  const cells = Uint32Array.from({ length: result.nCells }, (_, i) => i);
  onProgress({ fraction: 0.1, step: 'singler' });
  const sr = model.classify(result.counts(), cells, {
    fineTune: p.fineTune,
    tuneThreshold: p.tuneThreshold,
    pruneNmads: p.pruneNmads,
    signal: ctx.signal,
    onProgress: (f) => onProgress({ fraction: 0.1 + 0.6 * f, step: 'singler' }),
  });
  const major = Array.from(sr.call, (l) => sr.labels[l]!);
  onProgress({ fraction: 0.72, step: 'subtypes' });
  const refined = refineLineages(result, cells, major, cluster);
  // marker-based per-cluster scoring from the tissue's marker lists (or the user's file)
  onProgress({ fraction: 0.8, step: 'markers' });
  let markerTypes: MarkerType[] | undefined;
  if (p.markerSource === 'upload') {
    const f = ctx.uploads?.markerFile;
    if (!f) throw new TaskError('annotate.markerFile', 'No marker file was given.', { detail: 'no file' });
    markerTypes = parseMarkerUpload(f);
  } else if (p.markerSource !== 'none') {
    markerTypes = await loadMarkerTypes(resources, p.markerSource, species, tissue);
  }
  let markerCalls: Map<string, { label: string; score: number }> | undefined;
  const resolved = markerTypes ? resolveMarkerTypes(markerTypes, result.geneIndex) : [];
  // a user file that matches nothing is an error; a tissue without bundled marker lists only skips the marker call
  if (p.markerSource === 'upload' && !resolved.length) {
    throw new TaskError('annotate.noMatchingTypes', 'No matching cell types.');
  }
  if (resolved.length) {
    const sc = scoreMarkerTypes(result.normalized(), cells, cluster, resolved);
    markerCalls = new Map(
      sc.call.map((c) => [c.group, { label: c.label, score: c.score / Math.max(c.cells, 1) }]),
    );
  }
  // a lineage the reference lacks (platelets in HCA) named by the marker call where the reference disagrees
  const gapFilled = fillReferenceGaps(refined.label, cluster, markerCalls, ref.labels);
  onProgress({ fraction: 0.9, step: 'writing' });
  return writeAnnotationOutputs({
    ctx,
    mode: 'auto',
    species,
    tissue,
    reference: info.id,
    cells,
    cluster,
    sr,
    major,
    final: gapFilled.label,
    markerCalls,
    seconds: (performance.now() - t0) / 1000,
  });
}

async function runSubtype(ctx: TaskRunContext<AnnotateParams>): Promise<AnnotateSummary> {
  const t0 = performance.now();
  const { result, params: p, onProgress } = ctx;
  const species = annotationSpecies(p);
  if (!p.lineage) throw new TaskError('annotate.lineageRequired', 'Choose the lineage to annotate.');
  const lin = lineageById(p.lineage);
  const cluster = categoricalLevel(result, p.clusterKey);
  let cells: Uint32Array;
  if (p.subset) cells = selectCells(result, p.subset);
  else {
    const majorLevel = result.obs(p.lineageKey);
    if (!majorLevel) {
      throw new TaskError('annotate.noLineageCells', `No "${p.lineageKey}" level.`, {
        lineage: p.lineage,
        key: p.lineageKey,
      });
    }
    const labels = categoricalLevel(result, p.lineageKey);
    const keep: number[] = [];
    labels.forEach((l, c) => (lin.major.test(l) || lin.panel.some((t) => t.name === l)) && keep.push(c));
    cells = Uint32Array.from(keep);
  }
  if (cells.length === 0) {
    throw new TaskError('annotate.noLineageCells', `No cell of ${p.lineage} in "${p.lineageKey}".`, {
      lineage: p.lineage,
      key: p.lineageKey,
    });
  }
  onProgress({ fraction: 0.1, step: 'subtypes' });
  const sub = refineLineages(
    result,
    cells,
    Array.from(cells, () => lin.id),
    Array.from(cells, (c) => cluster[c]!),
    lin,
  );
  // annot_sub2: per-cell SingleR against the haematopoietic reference's labels of the lineage (human only)
  let sub2: string[] | undefined;
  let sr: SingleRResult | undefined;
  if (species === 'human' && lin.sub2) {
    const info = REFERENCES.find((r) => r.id === 'hema_microarray')!;
    const ref = await loadReference(ctx.resources, info.path);
    const labels = ref.labels.filter((l) => lin.sub2!.test(l));
    if (labels.length >= 2) {
      const model = new SingleRModel(ref, result.geneIndex, result.nGenes, labels);
      onProgress({ fraction: 0.4, step: 'singler' });
      sr = model.classify(result.counts(), cells, {
        fineTune: p.fineTune,
        tuneThreshold: p.tuneThreshold,
        pruneNmads: p.pruneNmads,
        signal: ctx.signal,
        onProgress: (f) => onProgress({ fraction: 0.4 + 0.5 * f, step: 'singler' }),
      });
      sub2 = Array.from(sr.call, (l) => sr!.labels[l]!);
    }
  }
  return writeAnnotationOutputs({
    ctx,
    mode: 'subtype',
    species,
    tissue: p.tissue?.trim() ?? '',
    reference: sr ? 'hema_microarray' : 'markers',
    cells,
    cluster: Array.from(cells, (c) => cluster[c]!),
    sr,
    major: Array.from(cells, () => lin.id),
    final: sub.label,
    sub2,
    lineage: lin.id,
    seconds: (performance.now() - t0) / 1000,
  });
}

export const engine: EngineTask<AnnotateParams, AnnotateSummary> = {
  name: 'annotate',
  run: (ctx) => (ctx.params.mode === 'subtype' ? runSubtype(ctx) : runAuto(ctx)),
  estimateMemoryBytes,
};
