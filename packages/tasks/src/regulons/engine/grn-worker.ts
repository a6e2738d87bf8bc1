import { registerHooks } from 'node:module';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { GrnSlice } from './binning';
import type * as Gbm from './gbm';

/**
 * Worker thread of grn.ts: boosts slices of the targets. grn.ts starts it with
 * `{ task: 'grn-boost', input }`, posts `{ from, to }` per slice and gets one `{ tick }` per target,
 * then `{ done, from, out }`. The worker runs under Node's own type stripping (no loader in a test
 * worker), which needs file extensions: a resolve hook adds `.ts` to the extensionless relative
 * imports of gbm.ts, histograms.ts, rng.ts and methods/random.ts (erasable TypeScript, no other
 * runtime imports).
 */
if (!isMainThread && workerData?.task === 'grn-boost' && parentPort) {
  registerHooks({
    resolve(specifier, context, next) {
      const local =
        /^\.\.?\/[\w./-]+$/.test(specifier) &&
        !specifier.endsWith('.ts') &&
        context.parentURL?.endsWith('.ts');
      return next(local ? `${specifier}.ts` : specifier, context);
    },
  });
  const { boostSlice } = (await import(new URL('./gbm.ts', import.meta.url).href)) as typeof Gbm;
  const input = workerData.input as GrnSlice;
  const port = parentPort;
  port.on('message', (msg: { from: number; to: number }) => {
    const out = boostSlice(input, msg.from, msg.to, () => port.postMessage({ tick: 1 }));
    port.postMessage({ done: true, from: msg.from, out }, [out.buffer as ArrayBuffer]);
  });
}
