/**
 * 2D camera of the embedding viewer. Data coordinates are normalized to [-1, 1]; the shorter
 * canvas side spans that range at scale 1 (aspect ratio kept).
 *   screen x = width / 2  + (x · scale + tx) · unit
 *   screen y = height / 2 − (y · scale + ty) · unit,   unit = min(width, height) / 2
 */
export interface Camera {
  scale: number;
  tx: number;
  ty: number;
}

export interface ViewState extends Camera {
  width: number;
  height: number;
}

export const HOME: Camera = { scale: 1, tx: 0, ty: 0 };

const unit = (v: ViewState) => Math.min(v.width, v.height) / 2;

export function dataToScreen(v: ViewState, x: number, y: number): [number, number] {
  const u = unit(v);
  return [v.width / 2 + (x * v.scale + v.tx) * u, v.height / 2 - (y * v.scale + v.ty) * u];
}

export function screenToData(v: ViewState, px: number, py: number): [number, number] {
  const u = unit(v);
  return [((px - v.width / 2) / u - v.tx) / v.scale, ((v.height / 2 - py) / u - v.ty) / v.scale];
}

/** Pan by a screen-pixel delta. */
export function pan(v: ViewState, dx: number, dy: number): Camera {
  const u = unit(v);
  return { scale: v.scale, tx: v.tx + dx / u, ty: v.ty - dy / u };
}

/** Zoom by `factor` keeping the data point under (px, py) fixed. */
export function zoomAt(v: ViewState, px: number, py: number, factor: number): Camera {
  const scale = Math.min(500, Math.max(0.2, v.scale * factor));
  const [x, y] = screenToData(v, px, py);
  const u = unit(v);
  return { scale, tx: (px - v.width / 2) / u - x * scale, ty: (v.height / 2 - py) / u - y * scale };
}

/** Data → WebGL clip space (the camera as two uniforms): clip = data · s + t per axis. */
export function clipTransform(v: ViewState): { s: [number, number]; t: [number, number] } {
  const u = unit(v);
  const kx = (2 * u) / v.width;
  const ky = (2 * u) / v.height;
  return { s: [v.scale * kx, v.scale * ky], t: [v.tx * kx, v.ty * ky] };
}
