import { useId } from 'react';
import { isEmptyFilter, type MetadataFilter } from '../../core/retrieve/filters';
import { setRetrieval } from '../../state/controller';
import { useCorpus, useView } from '../../state/stores';
import { Check } from './controls';

/** Sets a filter field, deleting it when empty so the URL and the cache keys stay clean. */
function setFilter<K extends keyof MetadataFilter>(key: K, value: MetadataFilter[K] | undefined): void {
  setRetrieval((r) => {
    const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
    if (empty) delete r.filters[key];
    else r.filters[key] = value;
  });
}

function toggle(list: string[] | undefined, item: string, on: boolean): string[] {
  const rest = (list ?? []).filter((x) => x !== item);
  return on ? [...rest, item] : rest;
}

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', pt: 'Portuguese', es: 'Spanish', de: 'German', fr: 'French', it: 'Italian', zh: 'Chinese', nl: 'Dutch' };

/** Metadata filters, applied before ranking. */
export function FilterControls() {
  const f = useView((s) => s.view.retrieval.filters);
  const docs = useCorpus((s) => s.status?.docs);
  const sectionId = useId();
  const fromId = useId();
  const toId = useId();
  const present = docs ?? [];
  const languages = [...new Set([...present.map((d) => d.language), ...(f.languages ?? [])])].sort();
  // Ids from a shared link or of removed documents still filter: say so, so nothing is hidden silently.
  const missingDocs = (f.docs ?? []).filter((id) => !present.some((d) => d.id === id));

  return (
    <div className="p-group">
      <h3>Filters</h3>
      <p className="p-hint">Applied before ranking. Nothing checked means no filter.</p>

      <fieldset className="p-list">
        <legend>Documents</legend>
        {present.length === 0 && <span className="p-hint">No documents yet.</span>}
        {present.map((d) => (
          <Check key={d.id} label={d.title} checked={f.docs?.includes(d.id) ?? false} onChange={(on) => setFilter('docs', toggle(f.docs, d.id, on))} />
        ))}
        {missingDocs.length > 0 && (
          <span className="p-warn">
            {missingDocs.length} document{missingDocs.length > 1 ? 's' : ''} in this filter {missingDocs.length > 1 ? 'are' : 'is'} not in the corpus.{' '}
            <button type="button" className="link" onClick={() => setFilter('docs', f.docs?.filter((id) => !missingDocs.includes(id)))}>
              drop {missingDocs.length > 1 ? 'them' : 'it'}
            </button>
          </span>
        )}
      </fieldset>

      <div className="p-field">
        <label htmlFor={sectionId}>Section title contains</label>
        <input id={sectionId} type="text" value={f.section ?? ''} placeholder="e.g. Methods" onChange={(e) => setFilter('section', e.target.value)} />
      </div>

      {languages.length > 0 && (
        <fieldset className="p-list p-inline">
          <legend>Languages</legend>
          {languages.map((l) => (
            <Check key={l} label={LANGUAGE_NAMES[l] ? `${LANGUAGE_NAMES[l]} (${l})` : l} checked={f.languages?.includes(l) ?? false} onChange={(on) => setFilter('languages', toggle(f.languages, l, on))} />
          ))}
        </fieldset>
      )}

      <div className="p-dates">
        <div className="p-field">
          <label htmlFor={fromId}>Date from</label>
          <input id={fromId} type="date" value={f.dateFrom ?? ''} onChange={(e) => setFilter('dateFrom', e.target.value)} />
        </div>
        <div className="p-field">
          <label htmlFor={toId}>Date to</label>
          <input id={toId} type="date" value={f.dateTo ?? ''} onChange={(e) => setFilter('dateTo', e.target.value)} />
        </div>
      </div>
      {(f.dateFrom || f.dateTo) && <p className="p-hint">Documents without a date are left out while a date is set.</p>}

      {!isEmptyFilter(f) && (
        <button type="button" className="link" onClick={() => setRetrieval((r) => void (r.filters = {}))}>
          Clear filters
        </button>
      )}
    </div>
  );
}
