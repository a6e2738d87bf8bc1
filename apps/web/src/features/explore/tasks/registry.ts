/**
 * Result views by task name: each task folder's `web/index.ts` (packages/tasks, generated
 * registry). A task without a view still gets the run panel, the history and a generic table view.
 */
export { WEB_TASKS } from '@cellcloud/tasks/web';
