/**
 * Drawing helpers for the corpus map (canvas 2D by hand): the data→screen transform, a
 * bucket grid for picking the point under the pointer, and the colour tables. The base
 * layer (every sentence) is drawn once into an offscreen canvas; highlights, the query and
 * hover are drawn over it, so moving a slider redraws only a few hundred marks.
 */
import type { ColumnId } from '../../worker/protocol';
import { CATEGORY_COLOURS as CATEGORIES, categoryColours, columnColour, type Scheme } from '../palette';

/** The base layer's category colours (documents, sections, languages); categoryColours(scheme) gives a theme's. */
export const CATEGORY_COLOURS = CATEGORIES;
export { categoryColours };

/** Column colours, the columns' own (one colour-blind-safe palette, see ../palette), strong enough to read over the muted base layer. */
export function columnColours(scheme: Scheme): (id: ColumnId) => string {
  return (id) => columnColour(id, scheme);
}

export interface View {
  /** CSS pixels. */
  width: number;
  height: number;
  minX: number;
  minY: number;
  scale: number;
  offX: number;
  offY: number;
}

/** The q-th quantile of finite values (sorted copy). */
function quantile(values: Float32Array, q: number): number {
  const sorted = values.filter(Number.isFinite).sort();
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]! : NaN;
}

/**
 * Fits the points (and the query) into width × height with a margin; y grows upwards. With
 * many points the bounds are the 0.5th and 99.5th percentiles, so a few far outliers (UMAP
 * makes some) do not squeeze the rest into a corner; the outliers are drawn at the edge.
 */
export function fitView(xy: Float32Array, width: number, height: number, extra: [number, number] | null = null, margin = 16): View {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const take = (x: number, y: number) => {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  };
  const n = xy.length / 2;
  if (n >= 200) {
    const xs = new Float32Array(n);
    const ys = new Float32Array(n);
    for (let i = 0; i < n; i++) (xs[i] = xy[2 * i]!), (ys[i] = xy[2 * i + 1]!);
    take(quantile(xs, 0.005), quantile(ys, 0.005));
    take(quantile(xs, 0.995), quantile(ys, 0.995));
  } else for (let i = 0; i < xy.length; i += 2) take(xy[i]!, xy[i + 1]!);
  if (extra) take(extra[0], extra[1]);
  if (!Number.isFinite(minX)) (minX = 0), (maxX = 1), (minY = 0), (maxY = 1);
  const w = Math.max(1e-9, maxX - minX);
  const h = Math.max(1e-9, maxY - minY);
  const scale = Math.min((width - 2 * margin) / w, (height - 2 * margin) / h);
  return { width, height, minX, minY, scale, offX: (width - w * scale) / 2, offY: (height - h * scale) / 2 };
}

export function toScreen(v: View, x: number, y: number): [number, number] {
  const sx = v.offX + (x - v.minX) * v.scale;
  const sy = v.height - (v.offY + (y - v.minY) * v.scale);
  // Outliers beyond the fitted bounds sit on the edge, still visible and pickable.
  return [Math.min(v.width - 2, Math.max(2, sx)), Math.min(v.height - 2, Math.max(2, sy))];
}

/** A uniform grid of screen positions for nearest-point lookups. */
export class PickGrid {
  private readonly cells = new Map<number, number[]>();
  constructor(
    private readonly sx: Float32Array,
    private readonly cell = 12,
  ) {
    for (let i = 0; i < sx.length / 2; i++) {
      const key = this.key(sx[2 * i]!, sx[2 * i + 1]!);
      let c = this.cells.get(key);
      if (!c) this.cells.set(key, (c = []));
      c.push(i);
    }
  }

  private key(x: number, y: number): number {
    return Math.floor(y / this.cell) * 100_000 + Math.floor(x / this.cell);
  }

  /** The nearest point within `radius` CSS pixels; points passing `prefer` win within the radius. */
  nearest(x: number, y: number, radius: number, prefer?: (i: number) => boolean): number | null {
    let best: number | null = null;
    let bestD = radius * radius;
    let bestPreferred = false;
    const r = Math.ceil(radius / this.cell);
    const cx = Math.floor(x / this.cell);
    const cy = Math.floor(y / this.cell);
    for (let gy = cy - r; gy <= cy + r; gy++) {
      for (let gx = cx - r; gx <= cx + r; gx++) {
        for (const i of this.cells.get(gy * 100_000 + gx) ?? []) {
          const d = (this.sx[2 * i]! - x) ** 2 + (this.sx[2 * i + 1]! - y) ** 2;
          if (d > radius * radius) continue;
          const p = prefer ? prefer(i) : false;
          if ((p && !bestPreferred) || (p === bestPreferred && d < bestD) || best === null) {
            if (!p && bestPreferred) continue;
            best = i;
            bestD = d;
            bestPreferred = p;
          }
        }
      }
    }
    return best;
  }
}

/** Screen positions of every point (CSS pixels), 2 values each. */
export function screenPositions(xy: Float32Array, v: View): Float32Array {
  const out = new Float32Array(xy.length);
  for (let i = 0; i < xy.length; i += 2) {
    const [x, y] = toScreen(v, xy[i]!, xy[i + 1]!);
    out[i] = x;
    out[i + 1] = y;
  }
  return out;
}
