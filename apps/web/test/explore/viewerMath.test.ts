import { describe, expect, it } from 'vitest';
import {
  clipTransform,
  dataToScreen,
  HOME,
  pan,
  screenToData,
  zoomAt,
} from '../../src/features/explore/viewer/camera';
import { pointsInPolygon } from '../../src/features/explore/viewer/lasso';
import { buildGrid, nearest } from '../../src/features/explore/viewer/spatialGrid';
import { categoryCentroids, project3D } from '../../src/features/explore/viewer/scatterPoints';

const v = { ...HOME, width: 800, height: 400 };

describe('camera', () => {
  it('gives the WebGL renderer the same placement as the screen mapping (clip space → pixels)', () => {
    const cam = { ...zoomAt(v, 300, 120, 2.5), width: 800, height: 400 };
    const { s, t } = clipTransform(cam);
    for (const [x, y] of [
      [0, 0],
      [0.3, -0.7],
      [-1, 1],
    ] as const) {
      const [px, py] = dataToScreen(cam, x, y);
      expect(((x * s[0] + t[0] + 1) / 2) * 800).toBeCloseTo(px, 6);
      expect(((1 - (y * s[1] + t[1])) / 2) * 400).toBeCloseTo(py, 6);
    }
  });

  it('maps data to screen and back, keeping the aspect ratio', () => {
    expect(dataToScreen(v, 0, 0)).toEqual([400, 200]);
    expect(dataToScreen(v, 1, 1)).toEqual([600, 0]);
    const [x, y] = screenToData(v, 123, 321);
    expect(dataToScreen(v, x, y)[0]).toBeCloseTo(123, 9);
  });
  it('zooms about the cursor and pans by pixels', () => {
    const z = { ...zoomAt(v, 600, 0, 2), width: 800, height: 400 };
    expect(z.scale).toBe(2);
    expect(dataToScreen(z, 1, 1)[0]).toBeCloseTo(600, 9);
    expect(dataToScreen(z, 1, 1)[1]).toBeCloseTo(0, 9);
    const p = { ...pan(v, 10, -20), width: 800, height: 400 };
    expect(dataToScreen(p, 0, 0)).toEqual([410, 180]);
  });
});

describe('picking and lasso', () => {
  const x = Float32Array.from([-0.5, 0.5, 0.51, 0.9]);
  const y = Float32Array.from([-0.5, 0.5, 0.52, -0.9]);
  it('finds the nearest point within a radius through the grid', () => {
    const g = buildGrid(x, y, 16);
    expect(nearest(g, x, y, 0.505, 0.515, 0.05)).toBe(2);
    expect(nearest(g, x, y, -0.49, -0.5, 0.05)).toBe(0);
    expect(nearest(g, x, y, 0, 0, 0.05)).toBe(-1);
  });
  it('selects the points inside a polygon', () => {
    expect(
      pointsInPolygon(x, y, [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ]),
    ).toEqual([1, 2]);
    expect(
      pointsInPolygon(x, y, [
        [0, 0],
        [1, 0],
      ]),
    ).toEqual([]);
  });
});

describe('3D projection and centroids', () => {
  it('projects 3D coordinates and finds category centroids', () => {
    const p = project3D(Float32Array.from([1]), Float32Array.from([0]), Float32Array.from([0]), 90, 0);
    expect(p.x[0]).toBeCloseTo(0, 6);
    const c = categoryCentroids(
      Float32Array.from([0, 2, 5]),
      Float32Array.from([0, 2, 5]),
      Uint32Array.from([0, 0, 1]),
      3,
    );
    expect(c[0]).toEqual({ x: 1, y: 1, n: 2 });
    expect(c[2]!.n).toBe(0);
  });
});
