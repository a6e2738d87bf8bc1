/** What the figures layer shares (re-exported by `@cellcloud/tasks/figures`). */
export * from './charts';
export * from './export';
export * from './table';
export * from './volcano';
export type { FigureOption } from './option';
