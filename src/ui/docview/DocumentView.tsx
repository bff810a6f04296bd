/** The document view with nested ranges (being written). */
export function DocumentView() {
  return null;
}
