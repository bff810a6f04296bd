import { useItHere, useLabOwner } from '../state/lab-owner';
import { useCorpus } from '../state/stores';

/**
 * Several tabs (src/state/lab-owner.ts): in a tab that does not own the lab, what it is and the
 * button that takes the lab over. The owner keeps embedding and writing; this tab shows what it
 * stores, as it stores it.
 */
export function OtherTab() {
  const owner = useCorpus((s) => s.status?.lab?.owner ?? true);
  const taking = useLabOwner((s) => s.taking);
  if (owner) return null;
  return (
    <p className="other-tab" role="status">
      The lab is open in another tab. This tab shows what that one keeps and follows its changes; adding, removing and embedding happen there.{' '}
      <button type="button" onClick={() => void useItHere()} disabled={taking}>
        {taking ? 'Taking it over…' : 'Use it here'}
      </button>
    </p>
  );
}
