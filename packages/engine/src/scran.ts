import * as scran from 'scran.js';
import { engineThreads } from './threads';

let ready: Promise<boolean> | undefined;

/** Initializes the scran.js WebAssembly module once per process (engineThreads(): 2 unless set to 1). */
export async function initScran(numberOfThreads = engineThreads()): Promise<typeof scran> {
  ready ??= scran.initialize({ numberOfThreads });
  await ready;
  return scran;
}

/** Frees every WebAssembly-backed object given, ignoring `undefined` (use in `finally`). */
export function freeAll(...objs: ({ free(): void } | undefined)[]): void {
  for (const o of objs) o?.free();
}
