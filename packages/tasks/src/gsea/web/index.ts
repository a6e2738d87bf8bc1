import type { WebTask } from '../../_shared/web/host';
import { GseaView } from './GseaView';

export const web: WebTask = { view: GseaView };
