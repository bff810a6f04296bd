import { FilterControls } from './FilterControls';
import { RetrievalControls } from './RetrievalControls';
import { StructureControls } from './StructureControls';
import './params.css';

/**
 * Every parameter: retrieval-only ones apply live while a slider moves; the ones that
 * change the embedded text are grouped apart and apply on release, since each re-embeds.
 */
export function ParamsPanel() {
  return (
    <section className="panel params" aria-label="Parameters">
      <h2>Parameters</h2>
      <RetrievalControls />
      <FilterControls />
      <StructureControls />
    </section>
  );
}
