import { useEffect, useMemo, useRef, useState } from 'react';
import type { ProjectionData } from '../../worker/protocol';
import { hoverPoint, openPoint, type ColourBy, type Highlight } from '../../state/map';
import { CATEGORY_COLOURS, categoryColours, columnColours, fitView, PickGrid, screenPositions, type View } from './draw';
import { cssColour, useScheme } from '../palette';

interface Props {
  data: ProjectionData;
  colourBy: ColourBy;
  highlights: Highlight[];
  query: [number, number] | null;
  hover: number | null;
  label: string;
}

declare global {
  interface Window {
    /** Test hook: where a sentence is drawn (client pixels), and which are highlighted. */
    __ragLabMap?: { point(index: number): { x: number; y: number } | null; highlighted(): { column: string; sentences: number[]; hits: number[] }[]; query(): { x: number; y: number } | null };
  }
}

/** The scatter: every sentence in an offscreen layer drawn once, highlights and the query on top. */
export function MapCanvas({ data, colourBy, highlights, query, hover, label }: Props) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState({ width: 800, height: 560 });
  // The theme's colours: the canvas redraws when the system switches between light and dark.
  const scheme = useScheme();

  useEffect(() => {
    const el = wrapRef.current;
    if (!el) return;
    // As wide as the view; no taller than most of the window, so the legend stays near.
    const measure = () => setSize({ width: Math.max(200, Math.floor(el.clientWidth)), height: Math.max(280, Math.min(720, Math.floor(el.clientWidth * 0.7), Math.floor(window.innerHeight * 0.75))) });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // The view depends on the data only (not the query), so the base layer is not redrawn when the query moves.
  const view: View = useMemo(() => fitView(data.xy, size.width, size.height), [data, size]);
  const screen = useMemo(() => screenPositions(data.xy, view), [data, view]);
  const grid = useMemo(() => new PickGrid(screen), [screen]);
  const dpr = typeof window !== 'undefined' ? Math.min(2, window.devicePixelRatio || 1) : 1;

  // Base layer: once per data, size and colouring.
  const base = useMemo(() => {
    const c = document.createElement('canvas');
    c.width = Math.round(size.width * dpr);
    c.height = Math.round(size.height * dpr);
    const ctx = c.getContext('2d');
    if (!ctx) return c;
    ctx.scale(dpr, dpr);
    const cat = colourBy === 'document' ? data.doc : colourBy === 'section' ? data.section : data.language;
    const r = data.n > 20_000 ? 1 : data.n > 3_000 ? 1.5 : 2;
    // Group by colour: one fillStyle change per colour, then rectangles.
    const groups = new Map<number, number[]>();
    for (let i = 0; i < data.n; i++) {
      const k = cat[i]! % CATEGORY_COLOURS.length;
      let g = groups.get(k);
      if (!g) groups.set(k, (g = []));
      g.push(i);
    }
    ctx.globalAlpha = data.n > 20_000 ? 0.45 : 0.6;
    const palette = categoryColours(scheme);
    for (const [k, ids] of groups) {
      ctx.fillStyle = palette[k]!;
      for (const i of ids) ctx.fillRect(screen[2 * i]! - r, screen[2 * i + 1]! - r, 2 * r, 2 * r);
    }
    return c;
  }, [data, colourBy, screen, size, dpr, scheme]);

  const highlighted = useMemo(() => {
    const s = new Set<number>();
    for (const h of highlights) for (const i of h.sentences) s.add(i);
    return s;
  }, [highlights]);

  const queryScreen = useMemo(() => {
    if (!query) return null;
    const [x, y] = [view.offX + (query[0] - view.minX) * view.scale, view.height - (view.offY + (query[1] - view.minY) * view.scale)];
    // A query outside the sentences' bounds is drawn at the edge, not lost.
    return { x: Math.min(view.width - 8, Math.max(8, x)), y: Math.min(view.height - 8, Math.max(8, y)) };
  }, [query, view]);

  // Overlay: redrawn when highlights, the query or hover change (the base layer is copied).
  useEffect(() => {
    const c = canvasRef.current;
    if (!c) return;
    c.width = Math.round(size.width * dpr);
    c.height = Math.round(size.height * dpr);
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(base, 0, 0);
    ctx.scale(dpr, dpr);
    // Each strategy: its handed-over sentences as rings, its hits filled; offsets keep overlaps visible.
    const colourOf = columnColours(scheme);
    const ink = cssColour('--text', '#111');
    const paper = cssColour('--panel', '#fff');
    highlights.forEach((h, hi) => {
      const colour = colourOf(h.column.id);
      const ring = 3 + hi * 0.8;
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      for (const i of h.sentences) {
        const x = screen[2 * i]!;
        const y = screen[2 * i + 1]!;
        ctx.moveTo(x + ring, y);
        ctx.arc(x, y, ring, 0, Math.PI * 2);
      }
      ctx.stroke();
      ctx.fillStyle = colour;
      ctx.beginPath();
      for (const i of h.hits) {
        const x = screen[2 * i]!;
        const y = screen[2 * i + 1]!;
        ctx.moveTo(x + 3, y);
        ctx.arc(x, y, 3, 0, Math.PI * 2);
      }
      ctx.fill();
    });
    if (queryScreen) {
      const { x, y } = queryScreen;
      ctx.fillStyle = ink;
      ctx.strokeStyle = paper;
      ctx.lineWidth = 2;
      ctx.beginPath();
      // A star: the query is the only one on the map.
      for (let k = 0; k < 10; k++) {
        const a = -Math.PI / 2 + (k * Math.PI) / 5;
        const rr = k % 2 === 0 ? 10 : 4.2;
        ctx.lineTo(x + rr * Math.cos(a), y + rr * Math.sin(a));
      }
      ctx.closePath();
      ctx.stroke();
      ctx.fill();
    }
    if (hover !== null && hover < data.n) {
      ctx.strokeStyle = ink;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(screen[2 * hover]!, screen[2 * hover + 1]!, 7, 0, Math.PI * 2);
      ctx.stroke();
    }
  }, [base, highlights, queryScreen, hover, screen, size, dpr, data.n, scheme]);

  // Test hook (client coordinates of a sentence's mark).
  useEffect(() => {
    window.__ragLabMap = {
      point(index) {
        const c = canvasRef.current;
        if (!c || index < 0 || index >= data.n) return null;
        const r = c.getBoundingClientRect();
        return { x: r.left + screen[2 * index]!, y: r.top + screen[2 * index + 1]! };
      },
      highlighted: () => highlights.map((h) => ({ column: h.column.id, sentences: h.sentences, hits: h.hits })),
      query() {
        const c = canvasRef.current;
        if (!c || !queryScreen) return null;
        const r = c.getBoundingClientRect();
        return { x: r.left + queryScreen.x, y: r.top + queryScreen.y };
      },
    };
  }, [data, screen, highlights, queryScreen]);
  useEffect(() => () => void delete window.__ragLabMap, []);

  const pick = (e: React.MouseEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return grid.nearest(e.clientX - r.left, e.clientY - r.top, 8, (i) => highlighted.has(i));
  };

  return (
    <div ref={wrapRef} className="map-canvas-wrap">
      <canvas
        ref={canvasRef}
        className="map-canvas"
        role="img"
        aria-label={label}
        style={{ width: size.width, height: size.height, cursor: hover !== null ? 'pointer' : 'crosshair' }}
        onMouseMove={(e) => void hoverPoint(pick(e))}
        onMouseLeave={() => void hoverPoint(null)}
        onClick={(e) => {
          const i = pick(e);
          if (i !== null) void openPoint(i);
        }}
      />
    </div>
  );
}
