import type { AppContext } from '../../context';
import type { ZodApp } from '../app';
import healthRoutes from './health';

/**
 * Every route module of the API, registered in this order. A feature area adds one line here.
 * Each module: `export default async function (app: ZodApp, ctx: AppContext)`.
 */
export const routeModules: ((app: ZodApp, ctx: AppContext) => Promise<void>)[] = [healthRoutes];
