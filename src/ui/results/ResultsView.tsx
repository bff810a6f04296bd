/** Question bar and the strategy columns (being written). */
export function ResultsView() {
  return <section aria-label="Results" />;
}
