import { cellScoreEngine } from './cell-score';
import { monocle3Engine } from './monocle3';
import { monocle2Engine } from './monocle2';
import type { EngineTask } from './types';
import { cnvEngineTask } from './cnv';
import { ithEngineTask } from './ith';
import { degGroupsTask } from './deg-groups';
import { enrichTask } from './enrich';
import { gseaTask } from './gsea';
import { gsvaTask } from './gsva';
import { annotateEngine } from './annotate';
import { interactionEngineTask } from './interaction';
import { vdjEngine } from './vdj';
import { regulonsEngineTask } from './regulons';

/**
 * Engine side of every task (issue 11): name → compute. Adding a task = one import and one
 * entry here. Keys are the contracts' task names.
 */
export const ENGINE_TASKS: Record<string, EngineTask<never, unknown>> = {
  'cell-score': cellScoreEngine as EngineTask<never, unknown>,
  'deg-groups': degGroupsTask as EngineTask<never, unknown>,
  enrich: enrichTask as EngineTask<never, unknown>,
  gsea: gseaTask as EngineTask<never, unknown>,
  gsva: gsvaTask as EngineTask<never, unknown>,
  annotate: annotateEngine as EngineTask<never, unknown>,
  interaction: interactionEngineTask as EngineTask<never, unknown>,
  cnv: cnvEngineTask as EngineTask<never, unknown>,
  ith: ithEngineTask as EngineTask<never, unknown>,
  monocle2: monocle2Engine as EngineTask<never, unknown>,
  monocle3: monocle3Engine as EngineTask<never, unknown>,
  vdj: vdjEngine as EngineTask<never, unknown>,
  regulons: regulonsEngineTask as EngineTask<never, unknown>,
};
