import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;

/**
 * A full (mark-compact) garbage collection now, so that large buffers this thread no longer
 * references are freed at once: a SharedArrayBuffer's memory (e.g. the normalized values, 4 B per
 * non-zero) is returned only once its object is collected, and an object that old is collected by
 * a full collection only, which V8 may not run for many seconds (issue 14: the normalized values
 * dropped after the markers were still held through most of the t-SNE). Uses `globalThis.gc` when
 * node runs with --expose-gc, else the same function from a new context (the flag is set for that
 * context's creation only). Returns false when neither is available (nothing is done then).
 */
export function collectGarbage(): boolean {
  if (gc === undefined) {
    const exposed = (globalThis as { gc?: unknown }).gc;
    if (typeof exposed === 'function') gc = exposed as () => void;
    else {
      try {
        setFlagsFromString('--expose-gc');
        const fn: unknown = runInNewContext('gc');
        gc = typeof fn === 'function' ? (fn as () => void) : null;
      } catch {
        gc = null;
      } finally {
        setFlagsFromString('--no-expose-gc');
      }
    }
  }
  if (!gc) return false;
  gc();
  return true;
}
