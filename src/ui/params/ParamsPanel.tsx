/** Retrieval and structure parameters (being written). */
export function ParamsPanel() {
  return <section aria-label="Parameters" />;
}
