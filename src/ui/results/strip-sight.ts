import { createContext, useContext } from 'react';

/**
 * Which columns of the strip are in sight sideways, as last measured by the strip (after a
 * layout, never forcing one): a long column scrolled out of sight draws no block in full with
 * a new answer (windowing.ts), and its blocks turn full when it is scrolled to.
 */
export interface StripSight {
  inSight(index: number): boolean;
  /** The column's width in px as last measured (the window's before the strip has measured). */
  width(index: number): number;
}

/** Outside a strip (or before it has measured) every column counts as in sight, as wide as the window. */
export const StripSightContext = createContext<StripSight>({ inSight: () => true, width: () => window.innerWidth });

export const useStripSight = (): StripSight => useContext(StripSightContext);

/** Whether the column spanning [left, right) (px from the strip's content start) shows in a strip scrolled to `scrollLeft` and `width` wide. */
export function spanInSight(span: readonly [number, number] | undefined, scrollLeft: number, width: number): boolean {
  if (!span || width <= 0) return true;
  return span[1] > scrollLeft && span[0] < scrollLeft + width;
}
