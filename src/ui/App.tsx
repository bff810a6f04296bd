import { CorpusPanel } from './corpus/CorpusPanel';
import { DocumentView } from './docview/DocumentView';
import { ModelPanel } from './models/ModelPanel';
import { ParamsPanel } from './params/ParamsPanel';
import { ResultsView } from './results/ResultsView';
import { TopBar } from './TopBar';

export function App() {
  return (
    <div className="app">
      <TopBar />
      <div className="layout">
        <aside className="sidebar">
          <CorpusPanel />
          <ModelPanel />
          <ParamsPanel />
        </aside>
        <main className="main">
          <ResultsView />
        </main>
        <DocumentView />
      </div>
    </div>
  );
}
