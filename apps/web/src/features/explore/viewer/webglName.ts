/** UNMASKED_RENDERER_WEBGL of a throw-away context on `canvas` ('' if masked), null without WebGL. */
export function webglRendererName(canvas: HTMLCanvasElement | OffscreenCanvas): string | null {
  try {
    const gl = canvas.getContext('webgl') as WebGLRenderingContext | null;
    if (!gl) return null;
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const name = ext ? String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : '';
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return name;
  } catch {
    return null;
  }
}
