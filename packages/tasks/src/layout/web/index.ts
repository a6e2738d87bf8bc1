import type { WebTask } from '../../_shared/web/host';
import { LayoutView } from './LayoutView';

export const web: WebTask = { view: LayoutView };
