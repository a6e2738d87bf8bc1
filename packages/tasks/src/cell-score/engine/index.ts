import { gunzipBytes, TaskError } from '@cellcloud/engine/tasks/kit';
import type { EngineTask, ResourceReader, ResultHandle } from '@cellcloud/engine/tasks/kit';
import type { CellScoreParams, CellScoreSummary } from '../contract';
import { estimateMemoryBytes } from '../memory';
import { BUILTIN_GENE_SETS, HALLMARK_GMT, parseGmt } from './gene-sets';
import { MAX_GENE_SET_SIZE, parseGeneSetFile } from './gene-set-file';
import { moduleScore, ucellScore } from './scores';

/**
 * Cell score task (`../contract.ts`, docs/methods/cell-score.md). Outputs:
 *   tables/scores.csv  columns `barcode`, `<name>_ModuleScore`, `<name>_UCell` (the chosen methods)
 *   obs/<name>_ModuleScore.f32, obs/<name>_UCell.f32  per-cell numeric columns for the explorer
 */

async function resolveGeneSet(
  params: CellScoreParams,
  uploads: Record<string, Uint8Array> | undefined,
  resources: ResourceReader,
): Promise<{ source: CellScoreSummary['source']; setName: string; genes: string[] }> {
  const upload = uploads?.geneSet;
  const given = [params.builtinSet !== undefined, params.genes !== undefined, upload !== undefined].filter(
    Boolean,
  ).length;
  if (given === 0)
    throw new TaskError(
      'cellScore.noGeneSet',
      'Choose a built-in gene set, type genes or upload a gene set file.',
    );
  if (given > 1)
    throw new TaskError(
      'cellScore.twoGeneSets',
      'Give only one gene set (built-in, typed genes or an uploaded file).',
    );
  if (upload) return { source: 'upload', setName: 'upload', genes: parseGeneSetFile(upload) };
  if (params.genes) {
    const genes = [...new Set(params.genes.map((g) => g.trim()).filter(Boolean))].slice(0, MAX_GENE_SET_SIZE);
    return { source: 'genes', setName: 'genes', genes };
  }
  const set = params.builtinSet!;
  if (set.startsWith('hallmark:')) {
    const gmt = new TextDecoder().decode(
      await gunzipBytes(await resources.readBytes(HALLMARK_GMT), HALLMARK_GMT),
    );
    const genes = parseGmt(gmt).get(set.slice('hallmark:'.length));
    if (!genes)
      throw new TaskError('cellScore.unknownSet', `There is no built-in gene set "${set}".`, { set });
    return { source: 'builtin', setName: set, genes };
  }
  const genes = BUILTIN_GENE_SETS[set];
  if (!genes) throw new TaskError('cellScore.unknownSet', `There is no built-in gene set "${set}".`, { set });
  return { source: 'builtin', setName: set, genes: [...genes] };
}

function matchGenes(
  result: ResultHandle,
  genes: string[],
): { used: number[]; usedNames: string[]; missing: string[] } {
  const used: number[] = [];
  const usedNames: string[] = [];
  const missing: string[] = [];
  const seen = new Set<number>();
  for (const g of genes) {
    const i = result.geneIndex(g);
    if (i < 0) missing.push(g);
    else if (!seen.has(i)) {
      seen.add(i);
      used.push(i);
      usedNames.push(result.genes.symbols[i] ?? g);
    }
  }
  return { used, usedNames, missing };
}

export const engine: EngineTask<CellScoreParams, CellScoreSummary> = {
  name: 'cell-score',
  async run({ result, params, onProgress, signal, sink, resources, uploads }) {
    onProgress({ fraction: 0.02, step: 'gene set' });
    const set = await resolveGeneSet(params, uploads, resources);
    const { used, usedNames, missing } = matchGenes(result, set.genes);
    if (used.length === 0) {
      throw new TaskError(
        'common.noGenesMatched',
        `None of the ${set.genes.length} genes was found in this dataset.`,
        {
          given: set.genes.length,
        },
      );
    }
    onProgress({ fraction: 0.1, step: 'normalize' });
    const norm = result.normalized();
    const methods: ('moduleScore' | 'ucell')[] =
      params.method === 'both' ? ['moduleScore', 'ucell'] : [params.method];
    const columns: Record<string, string> = {};
    const values: Float64Array[] = [];
    let nControlGenes: number | undefined;
    for (const [i, method] of methods.entries()) {
      if (signal?.aborted) throw new TaskError('common.cancelled', 'The analysis was cancelled.');
      onProgress({ fraction: 0.2 + (0.6 * i) / methods.length, step: method });
      if (method === 'moduleScore') {
        const r = moduleScore(norm, used, {
          nBins: params.nBins,
          nControl: params.nControl,
          seed: params.seed,
        });
        nControlGenes = r.controls.length;
        values.push(r.scores);
        columns.moduleScore = `${params.name}_ModuleScore`;
      } else {
        values.push(ucellScore(norm, used, params.maxRank));
        columns.ucell = `${params.name}_UCell`;
      }
    }
    onProgress({ fraction: 0.85, step: 'write' });
    const keys = methods.map((m) => columns[m]!);
    await sink.table('scores', {
      columns: ['barcode', ...keys],
      rows: result.barcodes.map((b, c) => [b, ...values.map((v) => v[c]!)]),
    });
    for (const [i, key] of keys.entries())
      await sink.cellColumn(key, { kind: 'numeric', values: values[i]! });
    return {
      name: params.name,
      source: set.source,
      setName: set.setName,
      genesGiven: set.genes.length,
      genesUsed: usedNames,
      genesMissing: missing,
      methods,
      columns,
      ...(nControlGenes !== undefined ? { nControlGenes } : {}),
    };
  },
  estimateMemoryBytes,
};
