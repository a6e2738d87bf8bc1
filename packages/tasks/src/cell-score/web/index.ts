import type { WebTask } from '../../_shared/web/host';
import { CellScoreView } from './CellScoreView';

export const web: WebTask = { view: CellScoreView };
