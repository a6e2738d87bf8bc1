import type { CnvParams } from '../contract';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { ResourceReader, ResultHandle } from '@cellcloud/engine/tasks/kit';
import {
  BAND_FILE,
  type Genome,
  layoutGenes,
  loadPositions,
  POSITION_FILES,
  type PositionTable,
} from './positions';

export interface CnvPositions {
  genome: Genome | 'custom';
  /** The position file(s) used, as shown to the user. */
  file: string;
  table: PositionTable;
  /** Ensembl-id table, when the dataset's gene ids are Ensembl ids. */
  idTable: PositionTable | null;
  /** hg38 cytobands for the p/q arm boundaries (human only). */
  bands: PositionTable | null;
}

function isEnsembl(ids: readonly string[]): boolean {
  let n = 0;
  const step = Math.max(1, Math.floor(ids.length / 2000));
  let seen = 0;
  for (let i = 0; i < ids.length; i += step, seen++) if (/^ENS[A-Z]*G\d/.test(ids[i] ?? '')) n++;
  return seen > 0 && n / seen >= 0.5;
}

/**
 * The gene-position tables of a CNV run: the file given by path, the chosen genome, or (species
 * unknown, genome auto) the assembly whose symbols match more genes. A genome contradicting the
 * dataset species is refused.
 */
export async function cnvPositions(
  resources: ResourceReader,
  result: ResultHandle,
  p: CnvParams,
  species: string,
): Promise<CnvPositions> {
  const humanBands = async () =>
    (await resources.exists(BAND_FILE)) ? loadPositions(resources, BAND_FILE) : null;
  if (p.positionsPath) {
    const table = await loadPositions(resources, p.positionsPath);
    const genome = p.genome === 'auto' ? 'custom' : p.genome;
    const bands = genome === 'mm10' || species === 'mouse' ? null : await humanBands();
    return { genome, file: p.positionsPath, table, idTable: null, bands };
  }
  let genome: Genome;
  if (p.genome !== 'auto') genome = p.genome;
  else if (species === 'mouse') genome = 'mm10';
  else if (species === 'human') genome = 'hg38';
  else {
    // species not detected: the assembly whose symbols match more genes
    const [h, m] = await Promise.all([
      loadPositions(resources, POSITION_FILES.hg38.symbols),
      loadPositions(resources, POSITION_FILES.mm10.symbols),
    ]);
    genome = layoutGenes(result, m, null).matched > layoutGenes(result, h, null).matched ? 'mm10' : 'hg38';
  }
  if ((species === 'mouse' && genome !== 'mm10') || (species === 'human' && genome === 'mm10')) {
    throw new TaskError(
      'cnv.genomeSpecies',
      `Genome ${genome} does not match the dataset species (${species}).`,
      { genome, species },
    );
  }
  const files = POSITION_FILES[genome];
  const table = await loadPositions(resources, files.symbols);
  const idTable = files.ids && isEnsembl(result.genes.ids) ? await loadPositions(resources, files.ids) : null;
  const bands = genome === 'mm10' ? null : await humanBands();
  return { genome, file: idTable ? `${files.ids} + ${files.symbols}` : files.symbols, table, idTable, bands };
}
