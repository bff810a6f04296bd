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
import { ContextsPanel } from './contexts/ContextsPanel';
import { MapView } from './map/MapView';
import { showMap, useMap } from '../state/map';
import { panelId, ViewTabs } from './ViewTabs';

type View = 'explore' | 'evaluate' | 'map';

/** `panel` names the tab panel: short, so that a field labelled "Question" stays the only thing of that name. */
const VIEWS: { id: View; label: string; panel: string }[] = [
  { id: 'explore', label: 'Explore a question', panel: 'Explore' },
  { id: 'evaluate', label: 'Evaluate on a labelled set', panel: 'Evaluate' },
  { id: 'map', label: 'Map of the corpus', panel: 'Map' },
];

export function App() {
  const tab = useTab((s) => s.tab);
  const map = useMap((s) => s.shown);
  const current: View = map ? 'map' : tab;
  const choose = (v: View) => {
    if (v === 'map') return showMap(true);
    showMap(false);
    useTab.setState({ tab: v });
  };
  return (
    <div className="app">
      <TopBar />
      <div className="layout">
        <aside className="sidebar" aria-label="Corpus, models and settings">
          <CorpusPanel />
          <ModelPanel />
          <ParamsPanel />
          <ExportPanel />
          <GeneratorPanel />
          <ContextsPanel />
        </aside>
        <main className="main">
          <ViewTabs views={VIEWS} current={current} onChoose={choose} />
          <div role="tabpanel" id={panelId(current)} aria-label={VIEWS.find((v) => v.id === current)!.panel} className="view-panel">
            {map ? <MapView /> : tab === 'explore' ? <ResultsView /> : <EvalLab />}
          </div>
        </main>
        {(map || tab === 'explore') && <DocumentView />}
      </div>
    </div>
  );
}
