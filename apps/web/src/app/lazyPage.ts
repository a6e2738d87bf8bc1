import { lazy, type ComponentType } from 'react';
import { LIMITS } from '@cellcloud/contracts/constants';

/** A route chunk that failed to load (network, new deployment) or took over 120 s. */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(`Chunk load error: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ChunkLoadError';
  }
}

/** React.lazy with the docs/product/limits.md#time-limits chunk load timeout; failures become ChunkLoadError. */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(
    () =>
      new Promise<{ default: ComponentType<P> }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new ChunkLoadError('timeout')), LIMITS.chunkLoadTimeoutMs);
        load().then(
          (m) => {
            clearTimeout(timer);
            resolve(m);
          },
          (e: unknown) => {
            clearTimeout(timer);
            reject(new ChunkLoadError(e));
          },
        );
      }),
  );
}
