/** What the web layer shares (re-exported by `@cellcloud/tasks/web` for the app and the views). */
export * from './host';
export * from './useTaskOutput';
export * from './ExportButtons';
export * from './format';
