import { describe, expect, it } from 'vitest';
import { STORAGE_PREFIX } from '@cellcloud/contracts';
import {
  decideRenderer,
  parseOverride,
  RENDERER_STORAGE_KEY,
} from '../../src/features/explore/viewer/rendererChoice';

describe('embedding renderer choice', () => {
  it('draws on the CPU under software rasterizers', () => {
    for (const name of [
      'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
      'llvmpipe (LLVM 15.0.6, 256 bits)',
      'softpipe',
      'Google SwiftShader',
      'ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0)',
      'Apple Software Renderer',
    ])
      expect(decideRenderer(name, null), name).toEqual({ kind: 'cpu', reason: 'software' });
  });

  it('uses WebGL on real GPUs and when the renderer name is masked', () => {
    for (const name of [
      'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)',
      'Apple M1',
      'Mesa Intel(R) UHD Graphics 620 (KBL GT2)',
      'AMD Radeon Pro 5500M OpenGL Engine',
      '',
    ])
      expect(decideRenderer(name, null), name).toEqual({ kind: 'webgl', reason: 'gpu' });
  });

  it('draws on the CPU when WebGL is unavailable', () => {
    expect(decideRenderer(null, null)).toEqual({ kind: 'cpu', reason: 'no-webgl' });
  });

  it('lets an override win in both directions', () => {
    expect(decideRenderer('SwiftShader', 'webgl')).toEqual({ kind: 'webgl', reason: 'override' });
    expect(decideRenderer('Apple M1', 'cpu')).toEqual({ kind: 'cpu', reason: 'override' });
    expect(decideRenderer(null, 'webgl')).toEqual({ kind: 'webgl', reason: 'override' });
  });

  it('parses override values strictly', () => {
    expect(parseOverride('webgl')).toBe('webgl');
    expect(parseOverride(' CPU ')).toBe('cpu');
    expect(parseOverride('gpu')).toBeNull();
    expect(parseOverride('')).toBeNull();
    expect(parseOverride(null)).toBeNull();
    expect(RENDERER_STORAGE_KEY).toBe(`${STORAGE_PREFIX}renderer`);
  });
});
