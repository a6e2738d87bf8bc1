import type { WebTask } from '../../_shared/web/host';
import { VdjView } from './VdjView';

export const web: WebTask = { view: VdjView };
