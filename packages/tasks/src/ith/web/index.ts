import type { WebTask } from '../../_shared/web/host';
import { IthView } from './IthView';

export const web: WebTask = { view: IthView };
