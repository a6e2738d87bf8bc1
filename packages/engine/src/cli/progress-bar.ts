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
