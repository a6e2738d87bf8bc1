import type { WebTask } from '../../_shared/web/host';
import { RegulonsView } from './RegulonsView';

export const web: WebTask = { view: RegulonsView };
