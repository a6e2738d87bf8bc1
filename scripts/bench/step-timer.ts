/**
 * Per-step wall and CPU seconds of an engine run, from its progress events (shared by
 * bench:engine and bench:subcluster), and the table they print. CPU seconds include worker
 * threads (process.cpuUsage), so CPU > wall where a step uses both cores.
 */
import type { ProgressEvent } from '@cellcloud/engine/steps/step';

export interface StepTime {
  step: string;
  wall: number;
  cpu: number;
  /** RSS in MB when the step started. */
  rssMB: number;
}

export class StepTimer {
  readonly steps: StepTime[] = [];
  /** performance.now() when the markers step ended (the "→ markers" milestone). */
  markersDone: number | undefined;
  private last = '';
  private wall = 0;
  private cpu = process.cpuUsage();
  private rss = 0;

  constructor(
    private readonly t0 = performance.now(),
    private readonly verbose = false,
  ) {}

  /** The progress callback to pass to runAnalysis / runSubcluster. */
  readonly onProgress = (e: ProgressEvent): void => {
    if (e.step === this.last) return;
    this.close();
    this.last = e.step;
    this.wall = performance.now();
    this.cpu = process.cpuUsage();
    this.rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
    if (this.verbose)
      console.log(
        `    … ${((this.wall - this.t0) / 1000).toFixed(1)} s ${e.message} (RSS ${this.rss} MB, at ${(Date.now() / 1000).toFixed(1)})`,
      );
  };

  /** Ends the current step (call once the run returns). */
  close(): void {
    if (!this.last) return;
    const cpu = process.cpuUsage(this.cpu);
    this.steps.push({
      step: this.last,
      wall: (performance.now() - this.wall) / 1000,
      cpu: (cpu.user + cpu.system) / 1e6,
      rssMB: this.rss,
    });
    if (this.last === 'markers') this.markersDone = performance.now();
    this.last = '';
  }
}

/** A fixed-width table: step, wall s, CPU s, RSS at start; extra rows (e.g. read, write) first/last. */
export function printStepTable(rows: StepTime[], indent = '  '): void {
  const line = (a: string, b: string, c: string, d: string) =>
    console.log(`${indent}${a.padEnd(16)}${b.padStart(9)}${c.padStart(9)}${d.padStart(11)}`);
  line('step', 'wall s', 'CPU s', 'RSS MB ↦');
  let wall = 0;
  let cpu = 0;
  for (const r of rows) {
    line(r.step, r.wall.toFixed(2), r.cpu.toFixed(2), r.rssMB ? String(r.rssMB) : '');
    wall += r.wall;
    cpu += r.cpu;
  }
  line('sum', wall.toFixed(2), cpu.toFixed(2), '');
}

/** The rows as the benchmarks' JSON lines give them (seconds to 2 decimals). */
export function stepsJson(rows: StepTime[]): { step: string; wall: number; cpu: number }[] {
  return rows.map((r) => ({ step: r.step, wall: Number(r.wall.toFixed(2)), cpu: Number(r.cpu.toFixed(2)) }));
}
