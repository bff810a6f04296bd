import { useId, useState } from 'react';
import { languageChoices, languageName, setDocumentLanguage } from '../../state/document-language';
import { errorText } from '../../state/messages';
import type { DocSummary } from '../../worker/protocol';
import './doc-language.css';

/** Whether the detector was unsure of a document's language (a choice of the user's or the file's is never unsure). */
export function languageUnsure(doc: DocSummary): boolean {
  return doc.languageInfo?.source === 'detected' && doc.languageInfo.sure === false;
}

/**
 * A document's language in its list entry: said as unsure when the detector was, and changeable
 * (only that document is split, indexed and embedded again). The choices are made when first
 * opened: a list of thousands of documents must not hold thousands of selects.
 */
export function DocumentLanguage({ doc }: { doc: DocSummary }) {
  const [opened, setOpened] = useState(false);
  const unsure = languageUnsure(doc);
  const by = doc.languageInfo?.source === 'user' ? ' (your choice)' : unsure ? ' — unsure' : '';
  return (
    <details className={`doc-language${unsure ? ' unsure' : ''}`} onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary>
        Language: {languageName(doc.language)}
        {by}
      </summary>
      {opened && <LanguageFields doc={doc} />}
    </details>
  );
}

function LanguageFields({ doc }: { doc: DocSummary }) {
  const id = useId();
  const [choice, setChoice] = useState(doc.language);
  const [phase, setPhase] = useState<'idle' | 'saving'>('idle');
  const [error, setError] = useState<string | null>(null);
  const alternatives = doc.languageInfo?.alternatives ?? [];
  const apply = async () => {
    setPhase('saving');
    setError(null);
    try {
      await setDocumentLanguage(doc.id, choice);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setPhase('idle');
    }
  };
  return (
    <div className="doc-language-fields">
      {languageUnsure(doc) && (
        <p className="doc-language-note">
          Detected from little or ambiguous text{alternatives.length ? `; it may also be ${alternatives.map(languageName).join(', ')}` : ''}. Sentences and BM25 follow the language: choose the right one.
        </p>
      )}
      <label htmlFor={id}>Language of {doc.title}</label>
      <select id={id} value={choice} onChange={(e) => setChoice(e.target.value)} disabled={phase === 'saving'}>
        {languageChoices(doc.language, alternatives).map((c) => (
          <option key={c.tag} value={c.tag}>
            {c.label}
          </option>
        ))}
      </select>
      <button type="button" onClick={() => void apply()} disabled={phase === 'saving' || (choice === doc.language && doc.languageInfo?.source === 'user')}>
        {phase === 'saving' ? 'Indexing again…' : 'Index in this language'}
      </button>
      {error && (
        <p className="doc-language-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
