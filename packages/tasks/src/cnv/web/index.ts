import type { WebTask } from '../../_shared/web/host';
import { CnvView } from './CnvView';

export const web: WebTask = { view: CnvView };
