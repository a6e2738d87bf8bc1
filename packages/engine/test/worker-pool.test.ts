import { describe, expect, it } from 'vitest';
import { runSlicesOnWorkers } from '../src/tasks/worker-pool';

type Msg = { tick?: number; done?: boolean; from?: number; sum?: number };

const slices = Array.from({ length: 8 }, (_, k): [number, number] => [5 * k, 5 * k + 5]);
const sumSq = (from: number, to: number) => {
  let s = 0;
  for (let i = from; i < to; i++) s += i * i;
  return s;
};
const script = new URL('./support/slice-worker.ts', import.meta.url);

async function run(workerData: object, signal?: AbortSignal) {
  const done = new Map<number, number>();
  let ticks = 0;
  const left = await runSlicesOnWorkers<Msg>({
    script,
    workerData,
    threads: 2,
    slices,
    signal,
    onMessage: (m) => {
      if (m.tick) ticks++;
      else if (m.done) {
        done.set(m.from!, m.sum!);
        return true;
      }
      return false;
    },
  });
  return { done, ticks, left };
}

describe('worker pool (tasks/worker-pool.ts)', () => {
  it('hands every slice to the workers once and returns nothing left', async () => {
    const { done, ticks, left } = await run({});
    expect(left).toEqual([]);
    expect(ticks).toBe(slices.length);
    expect([...done.keys()].sort((a, b) => a - b)).toEqual(slices.map(([f]) => f));
    for (const [from, to] of slices) expect(done.get(from)).toBe(sumSq(from, to));
  });

  it("returns a dead worker's slice and the slices never handed out, so the caller can finish them", async () => {
    const { done, left } = await run({ dieAt: 10 });
    expect(left).not.toBeNull();
    expect(left).toContainEqual([10, 15]);
    // together the workers' results and the returned slices cover every slice exactly once
    const covered = [...done.keys(), ...left!.map(([f]) => f)].sort((a, b) => a - b);
    expect(covered).toEqual(slices.map(([f]) => f));
  });

  it('hands out nothing once aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const { done, left } = await run({}, ac.signal);
    expect(done.size).toBe(0);
    expect(left).toEqual(slices);
  });
});
