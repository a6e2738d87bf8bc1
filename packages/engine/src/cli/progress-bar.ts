import { PerformanceObserver } from 'node:perf_hooks';
import type { ProgressEvent } from '../steps/step';

/** A one-line progress bar on stderr (redrawn in place on a TTY, one line per step otherwise). */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): (e: ProgressEvent) => void {
  const width = 30;
  let lastStep = '';
  let lastDraw = 0;
  return (e) => {
    const now = Date.now();
    if (stream.isTTY) {
      if (e.step === lastStep && now - lastDraw < 100 && e.fraction < 1) return;
      const filled = Math.round(e.fraction * width);
      const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
      stream.write(
        `\r${bar} ${(e.fraction * 100).toFixed(0).padStart(3)}%  ${e.message.padEnd(40).slice(0, 40)}`,
      );
      if (e.fraction >= 1) stream.write('\n');
    } else if (e.step !== lastStep) {
      stream.write(`[${(e.fraction * 100).toFixed(0).padStart(3)}%] ${e.message}\n`);
    }
    lastStep = e.step;
    lastDraw = now;
  };
}

interface StepRow {
  step: string;
  wall: number;
  cpu: number;
  gcMs: number;
  gcCount: number;
  rssMB: number;
}

/**
 * `cellcloud analyze --timings`: wall and CPU seconds per step (CPU of every thread of the process,
 * so CPU > wall where a step uses both cores; the UMAP layouts run in worker threads alongside
 * clustering and markers, so their CPU counts there), the main thread's garbage-collection pauses
 * in each step and the RSS when it started; `report()` is the table printed at the end
 * (docs/benchmarks/cli.md reads it).
 */
export class StepClock {
  private readonly rows: StepRow[] = [];
  private current: StepRow | undefined;
  private t = 0;
  private cpu = process.cpuUsage();
  private gcMs = 0;
  private gcCount = 0;
  private readonly t0 = performance.now();
  private readonly cpu0 = process.cpuUsage();
  private readonly gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      this.gcMs += e.duration;
      this.gcCount++;
    }
  });

  constructor() {
    this.gc.observe({ entryTypes: ['gc'] });
  }

  /** Starts `step` (ending the one before) unless it is the current one. */
  mark(step: string): void {
    if (this.current?.step === step) return;
    this.close();
    this.t = performance.now();
    this.cpu = process.cpuUsage();
    this.current = {
      step,
      wall: 0,
      cpu: 0,
      gcMs: this.gcMs,
      gcCount: this.gcCount,
      rssMB: Math.round(process.memoryUsage.rss() / 1048576),
    };
  }

  /** A progress callback that marks each step, then passes the event on. */
  wrap(next?: (e: ProgressEvent) => void): (e: ProgressEvent) => void {
    return (e) => {
      this.mark(e.step);
      next?.(e);
    };
  }

  private close(): void {
    const r = this.current;
    if (!r) return;
    const c = process.cpuUsage(this.cpu);
    r.wall = (performance.now() - this.t) / 1000;
    r.cpu = (c.user + c.system) / 1e6;
    r.gcMs = this.gcMs - r.gcMs;
    r.gcCount = this.gcCount - r.gcCount;
    this.rows.push(r);
    this.current = undefined;
  }

  /** Ends the last step and returns the table (one row per step, then the total). */
  report(): string {
    this.close();
    this.gc.disconnect();
    const line = (a: string, ...b: string[]) =>
      `  ${a.padEnd(14)}${b.map((x, i) => x.padStart(i >= 2 ? 11 : 9)).join('')}\n`;
    let out = `timings:\n${line('step', 'wall s', 'CPU s', 'GC ms (n)', 'RSS MB ↦')}`;
    for (const r of this.rows)
      out += line(
        r.step,
        r.wall.toFixed(2),
        r.cpu.toFixed(2),
        `${Math.round(r.gcMs)} (${r.gcCount})`,
        String(r.rssMB),
      );
    const c = process.cpuUsage(this.cpu0);
    out += line(
      'total',
      ((performance.now() - this.t0) / 1000).toFixed(2),
      ((c.user + c.system) / 1e6).toFixed(2),
      `${Math.round(this.gcMs)} (${this.gcCount})`,
      `${Math.round(process.resourceUsage().maxRSS / 1024)} peak`,
    );
    return out;
  }
}
