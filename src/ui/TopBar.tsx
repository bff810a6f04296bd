import { useCorpus, useView } from '../state/stores';
import { OtherTab } from './OtherTab';
import { storageText } from './storage-text';

/** Title, what is stored where, and any notices about the URL's parameters. */
export function TopBar() {
  const persistence = useCorpus((s) => s.status?.persistence);
  const made = useCorpus((s) => s.status?.embedding.made);
  const notices = useView((s) => s.notices);
  return (
    <header className="topbar">
      <h1>RAG Context Lab</h1>
      <p className="privacy">
        Runs entirely in this tab: documents never leave your machine. Models are downloaded from the source you choose.
        {persistence && ` ${storageText(persistence, made)}`}
      </p>
      <OtherTab />
      {notices.length > 0 && (
        <ul className="notices" aria-label="URL notices">
          {notices.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </header>
  );
}
