import { STORAGE_PREFIX } from '@cellcloud/contracts';
import type { RendererKind } from './renderer';

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
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl');
    if (!gl) return null;
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const name = ext ? String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : '';
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return name;
  } catch {
    return null;
  }
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

/** The decision for this page (the WebGL probe runs at most once per page load). */
export function chooseRenderer(): RendererDecision & { glRenderer: string | null } {
  const override = readOverride();
  if (override) return { ...decideRenderer(null, override), glRenderer: probed ?? null };
  if (probed === undefined) probed = probeWebglRenderer();
  return { ...decideRenderer(probed, null), glRenderer: probed };
}
