import type { AppContext } from '../../context';
import type { ZodApp } from '../app';
import filesRoutes from './files';
import filesTusRoutes from './files-tus';
import healthRoutes from './health';
import accountRoutes from './accounts';
import accountSessionRoutes from './account-session';
import contentRoutes from './content';
import drawingRoutes from './drawings';
import draftRoutes from './drafts';
import exploreRoutes from './explore';
import jobRoutes from './jobs';
import notificationRoutes from './notifications';
import preferenceRoutes from './preferences';
import downloadRoutes from './downloads';
import taskRoutes from './tasks';
import publicDatasetRoutes from './public-datasets';
import adminRoutes from './admin';
import adminCliRoutes from './admin-cli';
import adminPublicIngestRoutes from './admin-public-ingest';
import myFilesRoutes from './my-files';
import adminContentRoutes from './admin-content';
import sharingRoutes from './sharing';

/**
 * Every route module of the API, registered in this order. A feature area adds one line here.
 * Each module: `export default async function (app: ZodApp, ctx: AppContext)`.
 */
export const routeModules: ((app: ZodApp, ctx: AppContext) => Promise<void>)[] = [
  healthRoutes,
  accountRoutes,
  accountSessionRoutes,
  contentRoutes,
  drawingRoutes,
  filesRoutes,
  filesTusRoutes,
  jobRoutes,
  notificationRoutes,
  draftRoutes,
  exploreRoutes,
  preferenceRoutes,
  taskRoutes,
  downloadRoutes,
  publicDatasetRoutes,
  adminRoutes,
  adminCliRoutes,
  adminPublicIngestRoutes,
  myFilesRoutes,
  adminContentRoutes,
  sharingRoutes,
];
