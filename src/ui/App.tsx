import { CorpusPanel } from './corpus/CorpusPanel';
import { DocumentView } from './docview/DocumentView';
import { ModelPanel } from './models/ModelPanel';
import { ParamsPanel } from './params/ParamsPanel';
import { ResultsView } from './results/ResultsView';
import { EvalLab } from './eval/EvalLab';
import { useTab } from '../state/stores';
import { TopBar } from './TopBar';
import { GeneratorPanel } from './generate/GeneratorPanel';

export function App() {
  const tab = useTab((s) => s.tab);
  return (
    <div className="app">
      <TopBar />
      <div className="layout">
        <aside className="sidebar">
          <CorpusPanel />
          <ModelPanel />
          <ParamsPanel />
          <GeneratorPanel />
        </aside>
        <main className="main">
          <nav className="tabs" aria-label="Views">
            <button type="button" aria-pressed={tab === 'explore'} onClick={() => useTab.setState({ tab: 'explore' })}>
              Explore a question
            </button>
            <button type="button" aria-pressed={tab === 'evaluate'} onClick={() => useTab.setState({ tab: 'evaluate' })}>
              Evaluate on a labelled set
            </button>
          </nav>
          {tab === 'explore' ? <ResultsView /> : <EvalLab />}
        </main>
        {tab === 'explore' && <DocumentView />}
      </div>
    </div>
  );
}
