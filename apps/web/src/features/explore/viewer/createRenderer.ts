import { CanvasRenderer } from './canvasRenderer';
import type { PointRenderer } from './renderer';
import { chooseRenderer } from './rendererChoice';
import { WebglRenderer } from './webglRenderer';

/** Creates the chosen renderer on `canvas`; falls back to the CPU renderer if WebGL creation fails. */
export function createRenderer(canvas: HTMLCanvasElement): PointRenderer {
  const { kind } = chooseRenderer();
  if (kind === 'webgl') {
    try {
      return new WebglRenderer(canvas);
    } catch (e) {
      console.warn('WebGL renderer unavailable, drawing on the CPU instead:', e);
    }
  }
  return new CanvasRenderer(canvas);
}
