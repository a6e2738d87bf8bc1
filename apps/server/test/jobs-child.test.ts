import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { ChildProcessFailure, childTask, runInChild } from '../src/jobs/runner-child-process';

const noop = (sleepMs: number) =>
  childTask(new URL('../src/jobs/system.noop.child.ts', import.meta.url), 'test', { sleepMs });

/** The analysis child process: progress over IPC, a clean result, and abort = the child is killed. */
describe('analysis child process', () => {
  const config = loadConfig({ LOG_LEVEL: 'silent', CELLCLOUD_DATA_DIR: '/tmp/cellcloud-child-test' });

  it('streams progress back and resolves when the child is done', async () => {
    const seen: number[] = [];
    const result = await runInChild(noop(300), {
      config,
      memoryBytes: 256 * 2 ** 20,
      onProgress: async (f) => void seen.push(f),
    });
    expect(result).toEqual({ ok: true });
    expect(seen.length).toBe(10);
    expect(seen.at(-1)).toBe(1);
  });

  it('kills the child and rejects with a clear message when aborted', async () => {
    const ac = new AbortController();
    const run = runInChild(noop(20_000), {
      config,
      memoryBytes: 256 * 2 ** 20,
      signal: ac.signal,
      onProgress: async () => ac.abort(),
    });
    await expect(run).rejects.toBeInstanceOf(ChildProcessFailure);
    await expect(run).rejects.toThrow(/stopped/);
  });

  it('fails cleanly when a task throws inside the child', async () => {
    const run = runInChild(
      childTask(new URL('../src/jobs/analysis.preprocess.child.ts', import.meta.url), 'x', {
        samples: [{ name: 'gone', datasetKey: 'datasets/none/counts.h5ad' }],
        params: {},
        outKey: 'preprocess/x/1/qc.json',
      }),
      { config, memoryBytes: 256 * 2 ** 20 },
    );
    await expect(run).rejects.toThrow(/missing from storage; re-initiate from upload/);
  });
});
