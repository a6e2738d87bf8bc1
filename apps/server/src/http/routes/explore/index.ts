import type { AppContext } from '../../../context';
import type { ZodApp } from '../../app';
import artifactRoutes from './artifacts';
import subsetRoutes from './subsets';
import downloadRoutes from './download';

/** The explore area (SPEC §7 user_datasets/{id}/…): artifacts and subsets; DEG tasks plug in here. */
export default async function exploreRoutes(app: ZodApp, ctx: AppContext) {
  await artifactRoutes(app, ctx);
  await subsetRoutes(app, ctx);
  await downloadRoutes(app, ctx);
}
