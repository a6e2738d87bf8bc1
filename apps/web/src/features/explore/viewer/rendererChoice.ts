import { STORAGE_PREFIX } from '@cellcloud/contracts';
import type { RendererKind } from './renderer';
import { webglRendererName } from './webglName';

/**
 * Run-time choice of the embedding viewer's renderer. WebGL gl.POINTS is right on a real GPU; under a
 * software rasterizer (SwiftShader, llvmpipe, …) a 1M-point draw takes ~1 s, and the CPU splat on a
 * 2D canvas is several times faster. Override for testing/support: `?renderer=webgl|cpu` in the page
 * URL, else localStorage `${STORAGE_PREFIX}renderer` set to `webgl` or `cpu`.
 */
export const RENDERER_STORAGE_KEY = `${STORAGE_PREFIX}renderer`;

/** Names of software rasterizers as they appear in UNMASKED_RENDERER_WEBGL (case-insensitive). */
const SOFTWARE = /swiftshader|llvmpipe|softpipe|software|microsoft basic render/i;

export interface RendererDecision {
  kind: RendererKind;
  /** why: 'override', 'no-webgl', 'software', 'gpu' */
  reason: 'override' | 'no-webgl' | 'software' | 'gpu';
}

/** Parses an override value ('webgl' / 'cpu', any case); anything else is no override. */
export function parseOverride(value: string | null | undefined): RendererKind | null {
  const v = value?.trim().toLowerCase();
  return v === 'webgl' || v === 'cpu' ? v : null;
}

/**
 * The decision itself. `glRenderer`: UNMASKED_RENDERER_WEBGL, '' when WebGL works but the debug
 * extension is unavailable (masked: assume a GPU), null when WebGL is unavailable.
 */
export function decideRenderer(glRenderer: string | null, override: RendererKind | null): RendererDecision {
  if (override) return { kind: override, reason: 'override' };
  if (glRenderer === null) return { kind: 'cpu', reason: 'no-webgl' };
  if (SOFTWARE.test(glRenderer)) return { kind: 'cpu', reason: 'software' };
  return { kind: 'webgl', reason: 'gpu' };
}

/** UNMASKED_RENDERER_WEBGL of a throw-away context ('' if masked), null without WebGL. */
export function probeWebglRenderer(): string | null {
  return webglRendererName(document.createElement('canvas'));
}

function readOverride(): RendererKind | null {
  const fromUrl = parseOverride(new URLSearchParams(window.location.search).get('renderer'));
  if (fromUrl) return fromUrl;
  try {
    return parseOverride(window.localStorage.getItem(RENDERER_STORAGE_KEY));
  } catch {
    return null; // storage blocked: no override
  }
}

let probed: string | null | undefined;
let background: Worker | null = null;

/**
 * Starts the WebGL probe in a worker (OffscreenCanvas), so it runs while the page does other work
 * (e.g. while the positions download) instead of blocking the main thread when the viewer mounts.
 * Its answer is used when it comes in time and names a WebGL renderer; otherwise chooseRenderer
 * probes on the main thread as before. No-op with an override or without OffscreenCanvas.
 */
export function probeInBackground(): void {
  if (probed !== undefined || background || readOverride()) return;
  if (typeof OffscreenCanvas === 'undefined' || typeof Worker === 'undefined') return;
  try {
    const w = new Worker(new URL('./webglProbe.worker.ts', import.meta.url), { type: 'module' });
    background = w;
    w.onmessage = (ev: MessageEvent<string | null>) => {
      // null: no WebGL in a worker here, which says nothing about the page: probe there as before
      if (probed === undefined && typeof ev.data === 'string') probed = ev.data;
      w.terminate();
    };
    w.onerror = () => w.terminate();
  } catch {
    background = null;
  }
}

/** The decision if it is known without probing on the main thread (override, or a probe done), else null. */
export function knownRenderer(): RendererKind | null {
  const override = readOverride();
  if (override) return override;
  return probed === undefined ? null : decideRenderer(probed, null).kind;
}

/** The decision for this page (the WebGL probe runs at most once per page load). */
export function chooseRenderer(): RendererDecision & { glRenderer: string | null } {
  const override = readOverride();
  if (override) return { ...decideRenderer(null, override), glRenderer: probed ?? null };
  if (probed === undefined) probed = probeWebglRenderer();
  return { ...decideRenderer(probed, null), glRenderer: probed };
}
