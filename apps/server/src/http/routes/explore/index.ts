import type { AppContext } from '../../../context';
import type { ZodApp } from '../../app';
import artifactRoutes from './artifacts';

/** The explore area (SPEC §7 user_datasets/{id}/…): artifacts now; subsets and DEG tasks plug in here. */
export default async function exploreRoutes(app: ZodApp, ctx: AppContext) {
  await artifactRoutes(app, ctx);
}
