import type { WebTask } from '../../_shared/web/host';
import { InteractionTaskView } from './InteractionTaskView';

export const web: WebTask = { view: InteractionTaskView };
