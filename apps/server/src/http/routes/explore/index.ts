import type { AppContext } from '../../../context';
import type { ZodApp } from '../../app';
import artifactRoutes from './artifacts';
import subsetRoutes from './subsets';
import degRoutes from './deg';
import svgToTiffRoutes from './svg-to-tiff';
import subclusterRoutes from './subcluster';
import specCallRoutes from './spec-calls';
import methodsRoutes from './methods';
import annotationLevelRoutes from './annotation-levels';

/** The explore area (docs/product/api.md#dataset-calls user_datasets/{id}/…): artifacts, subsets, DEG tasks, SVG→TIFF export (result files are downloaded through requests: routes/downloads.ts). */
export default async function exploreRoutes(app: ZodApp, ctx: AppContext) {
  await artifactRoutes(app, ctx);
  await subsetRoutes(app, ctx);
  await degRoutes(app, ctx);
  await svgToTiffRoutes(app, ctx);
  await subclusterRoutes(app, ctx);
  await specCallRoutes(app, ctx);
  await methodsRoutes(app, ctx);
  await annotationLevelRoutes(app, ctx);
}
