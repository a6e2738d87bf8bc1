import type { WebTask } from '../../_shared/web/host';
import { DegGroupsView } from './DegGroupsView';

export const web: WebTask = { view: DegGroupsView };
