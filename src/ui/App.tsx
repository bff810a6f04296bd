import { CorpusPanel } from './corpus/CorpusPanel';
import { DocumentView } from './docview/DocumentView';
import { ModelPanel } from './models/ModelPanel';
import { ParamsPanel } from './params/ParamsPanel';
import { ExportPanel } from './export/ExportPanel';
import { ResultsView } from './results/ResultsView';
import { EvalLab } from './eval/EvalLab';
import { useTab } from '../state/stores';
import { TopBar } from './TopBar';
import { GeneratorPanel } from './generate/GeneratorPanel';
import { MapView } from './map/MapView';
import { showMap, useMap } from '../state/map';

export function App() {
  const tab = useTab((s) => s.tab);
  const map = useMap((s) => s.shown);
  const choose = (t: 'explore' | 'evaluate') => {
    showMap(false);
    useTab.setState({ tab: t });
  };
  return (
    <div className="app">
      <TopBar />
      <div className="layout">
        <aside className="sidebar">
          <CorpusPanel />
          <ModelPanel />
          <ParamsPanel />
          <ExportPanel />
          <GeneratorPanel />
        </aside>
        <main className="main">
          <nav className="tabs" aria-label="Views">
            <button type="button" aria-pressed={!map && tab === 'explore'} onClick={() => choose('explore')}>
              Explore a question
            </button>
            <button type="button" aria-pressed={!map && tab === 'evaluate'} onClick={() => choose('evaluate')}>
              Evaluate on a labelled set
            </button>
            <button type="button" aria-pressed={map} onClick={() => showMap(true)}>
              Map of the corpus
            </button>
          </nav>
          {map ? <MapView /> : tab === 'explore' ? <ResultsView /> : <EvalLab />}
        </main>
        {(map || tab === 'explore') && <DocumentView />}
      </div>
    </div>
  );
}
