import { z } from 'zod';

/**
 * The clustering resolution (Louvain/Leiden), bounds written once. Its field keeps the name each
 * SPEC call uses: `clusterResolution` (analysis params), `cluster` (wizard draft `param`),
 * `clusteringResolution` (sub-celltype analysis); the engine calls it `resolution`.
 */
export const RESOLUTION_BOUNDS = { min: 0.01, max: 5 } as const;
export const clusteringResolution = z.number().min(RESOLUTION_BOUNDS.min).max(RESOLUTION_BOUNDS.max);
