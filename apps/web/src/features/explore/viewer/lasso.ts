/** Points inside a lasso polygon (data coordinates), with a bounding-box prefilter. */
export function pointsInPolygon(x: Float32Array, y: Float32Array, poly: Array<[number, number]>): number[] {
  if (poly.length < 3) return [];
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const [px, py] of poly) {
    minX = Math.min(minX, px);
    maxX = Math.max(maxX, px);
    minY = Math.min(minY, py);
    maxY = Math.max(maxY, py);
  }
  const out: number[] = [];
  const m = poly.length;
  for (let i = 0; i < x.length; i += 1) {
    const px = x[i]!;
    const py = y[i]!;
    if (px < minX || px > maxX || py < minY || py > maxY) continue;
    let inside = false;
    for (let a = 0, b = m - 1; a < m; b = a, a += 1) {
      const [ax, ay] = poly[a]!;
      const [bx, by] = poly[b]!;
      if (ay > py !== by > py && px < ((bx - ax) * (py - ay)) / (by - ay) + ax) inside = !inside;
    }
    if (inside) out.push(i);
  }
  return out;
}
