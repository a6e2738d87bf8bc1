import type { WebTask } from '../../_shared/web/host';
import { EnrichView } from './EnrichView';

export const web: WebTask = { view: EnrichView };
