/**
 * glibc malloc settings for processes that run the engine (the job child, the CLI), given through
 * the GLIBC_TUNABLES environment variable of the process being started (glibc reads it at start;
 * other C libraries ignore it):
 *
 * - `mmap_threshold=1048576`: every allocation of 1 MiB or more — typed-array buffers of worker
 *   threads, writer chunks, per-block scratch — is its own mapping, returned to the system when
 *   freed. By default glibc raises the threshold up to 32 MiB as buffers are freed, so such buffers
 *   come from the heap arenas, where freed memory stays in the RSS.
 * - `arena_max=2`: two arenas (the machine's two cores) instead of 8 per core, one per thread that
 *   allocates — fewer half-empty arenas held by the worker threads.
 *
 * Measured on synth100k with every default and the outputs written alongside (issue 14): peak RSS
 * 3,307–3,357 MB without, 3,159–3,221 MB with, the same wall time (docs/benchmarks/engine.md).
 * Settings the operator already put in GLIBC_TUNABLES are kept.
 */
export const MALLOC_TUNABLES: Record<string, string> = {
  'glibc.malloc.mmap_threshold': '1048576',
  'glibc.malloc.arena_max': '2',
};

/** `env` with MALLOC_TUNABLES added to its GLIBC_TUNABLES (entries already there win). */
export function withMallocTunables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const given = (env.GLIBC_TUNABLES ?? '').split(':').filter(Boolean);
  const names = new Set(given.map((t) => t.split('=')[0]));
  const added = Object.entries(MALLOC_TUNABLES)
    .filter(([k]) => !names.has(k))
    .map(([k, v]) => `${k}=${v}`);
  return { ...env, GLIBC_TUNABLES: [...given, ...added].join(':') };
}
