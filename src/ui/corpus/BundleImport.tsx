import { useBundle } from '../../state/bundle-store';
import { importProgressText, KIND_NAMES } from '../../state/messages';
import { useCorpus } from '../../state/stores';

const sec = (ms: number) => (ms / 1000).toFixed(1);

/**
 * A dropped bundle's import while it runs, then what it brought (refusals go to the problems
 * list); after a start, a bundle whose import the page closed on (nothing of it was kept).
 */
export function BundleImport() {
  const importing = useBundle((s) => s.importing);
  const imported = useBundle((s) => s.imported);
  const unfinished = useCorpus((s) => s.status?.unfinishedImport);
  if (unfinished && !importing && !imported) {
    return (
      <p className="small bundle-unfinished" role="status">
        The bundle '{unfinished}' was still being stored when the page closed: drop it again.
      </p>
    );
  }
  if (importing) {
    return (
      <p className="small bundle-import" role="status">
        {importProgressText(importing.file, importing.progress)}
      </p>
    );
  }
  if (!imported) return null;
  const s = imported.summary;
  return (
    <p className="small bundle-import" role="status">
      Imported {imported.file}: {s.added.length} document{s.added.length === 1 ? '' : 's'} added
      {s.duplicates.length ? ` (${s.duplicates.length} already here)` : ''}, vectors of {s.vectorKinds.length ? s.vectorKinds.map((k) => KIND_NAMES[k]).join(', ') : 'none'}
      {s.model ? ` from ${s.model}` : ''}, nothing re-embedded{s.model ? ' but the semantic chunks, which the model cuts again' : ''} ({sec(s.ms)} s: zip {sec(s.phaseMs.unzip)}, tables and vectors {sec(s.phaseMs.read)}, storage {sec(s.phaseMs.store)}). It was exported from the {s.strategy} column ({s.retriever}).
    </p>
  );
}
