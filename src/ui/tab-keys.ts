/**
 * Where a key moves the focus in a horizontal tab list (WAI-ARIA APG tabs pattern): the
 * arrows wrap around, Home and End go to the ends; null for any other key.
 */
export function tabAfterKey(key: string, at: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowRight':
      return (at + 1) % count;
    case 'ArrowLeft':
      return (at - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
