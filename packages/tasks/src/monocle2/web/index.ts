import type { WebTask } from '../../_shared/web/host';
import { Monocle2View } from './Monocle2View';

export const web: WebTask = { view: Monocle2View };
