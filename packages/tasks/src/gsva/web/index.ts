import type { WebTask } from '../../_shared/web/host';
import { GsvaView } from './GsvaView';

export const web: WebTask = { view: GsvaView };
