/** Model choice and load status (being written). */
export function ModelPanel() {
  return <section aria-label="Models" />;
}
