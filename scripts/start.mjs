// `npm start`: install (if needed), build the web app, then run the API + in-process worker on
// the embedded defaults (PGlite and local storage under CELLCLOUD_DATA_DIR, default ./data).
import { ensureInstalled, ensureWebBuilt, must } from './lib.mjs';

ensureInstalled();
ensureWebBuilt(true);
must('node', ['--import', 'tsx', 'apps/server/src/entry/api.ts']);
