/** The evaluation lab (being written). */
export function EvalLab() {
  return <section aria-label="Evaluation lab" />;
}
