import { useEffect, useState } from 'react';

/**
 * How long a search must last before the page shows it: most answer in tens of milliseconds, and
 * showing "Searching…" made a frame of its own (~25 ms of a 2-core machine) that the answer's
 * message then waited behind. The strip's aria-busy is set at once: no style depends on it.
 */
export const BUSY_AFTER_MS = 120;

/** True once `on` has stayed true for `ms`; false as soon as it is false. */
export function useLasting(on: boolean, ms: number): boolean {
  const [lasted, setLasted] = useState(false);
  useEffect(() => {
    if (!on) return;
    const id = setTimeout(() => setLasted(true), ms);
    return () => {
      clearTimeout(id);
      setLasted(false);
    };
  }, [on, ms]);
  return on && lasted;
}
