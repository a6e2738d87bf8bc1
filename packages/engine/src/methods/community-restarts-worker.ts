/**
 * Worker entry of the community-detection restarts (community-restarts.ts, issue 33). Node loads
 * it directly, type annotations stripped; our modules import each other without file extensions
 * (as the bundlers and tsconfig want), so a resolve hook in this thread only retries a relative
 * specifier that Node cannot find with `.ts` appended before community-restarts.ts is imported.
 */
import { registerHooks } from 'node:module';
import { workerData } from 'node:worker_threads';

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!specifier.startsWith('.') || specifier.endsWith('.ts')) throw error;
      return nextResolve(`${specifier}.ts`, context);
    }
  },
});

const url = new URL('./community-restarts.ts', import.meta.url).href;
const { claimRestarts } = (await import(url)) as typeof import('./community-restarts');
claimRestarts(workerData.task, workerData.control, workerData.slot);
