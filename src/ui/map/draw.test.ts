import { describe, expect, it } from 'vitest';
import { fitView, PickGrid, screenPositions, toScreen } from './draw';

describe('map view', () => {
  it('fits a few points exactly, y growing upwards, with the margin', () => {
    const v = fitView(new Float32Array([0, 0, 10, 5]), 216, 216, null, 8);
    // 10 × 5 data units into 200 × 200 pixels: scale 20, centred vertically.
    expect(v.scale).toBe(20);
    expect(toScreen(v, 0, 0)).toEqual([8, 216 - 58]);
    expect(toScreen(v, 10, 5)).toEqual([208, 216 - 158]);
  });

  it('with many points, fits the 0.5–99.5th percentiles so outliers do not squeeze the rest; outliers sit on the edge', () => {
    const xy = new Float32Array(2 * 1000);
    for (let i = 0; i < 1000; i++) (xy[2 * i] = i / 999), (xy[2 * i + 1] = i / 999);
    xy[0] = -1000; // one far outlier
    xy[1] = 5000;
    const v = fitView(xy, 100, 100, null, 0);
    expect(v.scale).toBeGreaterThan(90); // ≈ 100 px per unit, not 100 px per 6000 units
    const [x, y] = toScreen(v, -1000, 5000);
    expect(x).toBe(2);
    expect(y).toBe(2);
  });

  it('picks the nearest point within the radius, preferring highlighted ones', () => {
    const sx = screenPositions(new Float32Array([0, 0, 1, 0, 5, 5]), { width: 100, height: 100, minX: 0, minY: 0, scale: 10, offX: 10, offY: 10 });
    const grid = new PickGrid(sx);
    // Points at screen (10, 90), (20, 90), (60, 40).
    expect(grid.nearest(12, 90, 6)).toBe(0);
    expect(grid.nearest(17, 90, 6)).toBe(1);
    expect(grid.nearest(15, 90, 6, (i) => i === 0)).toBe(0);
    expect(grid.nearest(40, 60, 6)).toBeNull();
  });
});
