import type { WebTask } from '../../_shared/web/host';
import { Monocle3View } from './Monocle3View';

export const web: WebTask = { view: Monocle3View };
