import { useState } from 'react';
import { useLab } from '../state/lab-store';
import { StrategyColumn } from './StrategyColumn';

export function App() {
  const { engine, files, query, results, budget, before, after } = useLab();
  const { addFiles, addText, setQuery, run, setWindow, setBudget } = useLab.getState();
  const [paste, setPaste] = useState('');
  return (
    <main>
      <h1>RAG Context Lab</h1>
      <p className="preview-note">
        Early preview: documents are split and searched with BM25 in this page; nothing leaves your machine. Embedding models, the worker, reranking and
        evaluation come next.
      </p>
      <section className="inputs">
        <label>
          Documents (pdf, md, txt, html){' '}
          <input type="file" multiple accept=".pdf,.md,.markdown,.txt,.html,.htm" onChange={(e) => void addFiles([...(e.target.files ?? [])])} />
        </label>
        <textarea aria-label="Paste text" placeholder="…or paste text" value={paste} onChange={(e) => setPaste(e.target.value)} />
        <button onClick={() => (addText(paste), setPaste(''))} disabled={!paste.trim()}>
          Add pasted text
        </button>
        <ul className="files">
          {files.map((f, i) => (
            <li key={i} className={f.ok ? 'ok' : 'error'}>
              {f.ok ? `${f.name}: ${f.message}` : f.message}
            </li>
          ))}
        </ul>
      </section>
      <form
        className="query"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <input aria-label="Question" placeholder="Ask a question" value={query} onChange={(e) => setQuery(e.target.value)} />
        <button type="submit">Search</button>
        <label>
          window before <input type="number" min={0} max={10} value={before} onChange={(e) => setWindow(Number(e.target.value), after)} />
        </label>
        <label>
          after <input type="number" min={0} max={10} value={after} onChange={(e) => setWindow(before, Number(e.target.value))} />
        </label>
        <label>
          budget (tokens) <input type="number" min={16} step={16} value={budget} onChange={(e) => setBudget(Number(e.target.value))} />
        </label>
      </form>
      <div className="columns">
        {results.map((r) => (
          <StrategyColumn key={r.strategy} result={r} engine={engine} />
        ))}
      </div>
    </main>
  );
}
