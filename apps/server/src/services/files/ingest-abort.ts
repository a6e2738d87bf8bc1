/**
 * Parses running in this process, by upload id, so deleting an upload kills its parse child at
 * once (a worker in another process notices the deletion within a second by itself).
 */
const running = new Map<string, AbortController>();

/** Registers a running parse; returns its release. */
export function watchIngest(uploadId: string, controller: AbortController): () => void {
  running.set(uploadId, controller);
  return () => {
    if (running.get(uploadId) === controller) running.delete(uploadId);
  };
}

/** Stops the parse of an upload if it runs in this process. */
export function abortIngest(uploadId: string): void {
  running.get(uploadId)?.abort();
}
