import { engineIdentity } from './identity';

/**
 * The engine identity written into every result (artifact manifest, h5ad `uns`, task outputs):
 * `<package version>+<content hash>` of the engine's sources, dependencies, Node version and
 * reference resources (identity.ts; docs/reproducibility.md). Computed on the first call.
 */
export const engineVersion = (): string => engineIdentity().id;
