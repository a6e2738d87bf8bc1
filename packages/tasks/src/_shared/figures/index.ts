/** What the figures layer shares (re-exported by `@cellcloud/tasks/figures`). */
export * from './charts';
export * from './export';
export type { FigureOption } from './option';
