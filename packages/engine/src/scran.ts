import * as scran from 'scran.js';

let ready: Promise<boolean> | undefined;

/** Initializes the scran.js WebAssembly module once per process (2 threads: this machine's cores). */
export async function initScran(numberOfThreads = 2): Promise<typeof scran> {
  ready ??= scran.initialize({ numberOfThreads });
  await ready;
  return scran;
}

/** Frees every WebAssembly-backed object given, ignoring `undefined` (use in `finally`). */
export function freeAll(...objs: ({ free(): void } | undefined)[]): void {
  for (const o of objs) o?.free();
}
