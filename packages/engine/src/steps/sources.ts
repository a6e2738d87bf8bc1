import type { FilteredData } from './filter';
import type { Step } from './step';

/** Any step whose result is the current set of cells and counts (filter → doublets → ambient). */
export type CountsSource = Step<unknown, FilteredData>;
