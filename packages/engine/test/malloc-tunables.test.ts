import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MALLOC_TUNABLES, withMallocTunables } from '../src/malloc-tunables';

describe('glibc malloc tunables for engine processes (issue 14 peak memory)', () => {
  it('adds the mmap threshold and arena count, keeping what the operator set', () => {
    expect(withMallocTunables({ PATH: '/bin' })).toEqual({
      PATH: '/bin',
      GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=1048576:glibc.malloc.arena_max=2',
    });
    const kept = withMallocTunables({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=4:glibc.cpu.x86_ibt=on' });
    expect(kept.GLIBC_TUNABLES).toBe(
      'glibc.malloc.arena_max=4:glibc.cpu.x86_ibt=on:glibc.malloc.mmap_threshold=1048576',
    );
    expect(Object.keys(MALLOC_TUNABLES)).toHaveLength(2);
  });

  it('reaches a child process started with the environment', () => {
    const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(process.env.GLIBC_TUNABLES ?? "")'], {
      env: withMallocTunables({}),
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('glibc.malloc.mmap_threshold=1048576:glibc.malloc.arena_max=2');
  });
});
