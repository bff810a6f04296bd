import { useMemo } from 'react';
import { highlightsOf, setColourBy, setMethod, shownProjection, toggleColumn, useMap, type ColourBy } from '../../state/map';
import { projectionNotes } from '../../state/messages';
import { useResults, useView } from '../../state/stores';
import type { ProjectionData } from '../../worker/protocol';
import { sectionPathLabel } from '../results/format';
import { CATEGORY_COLOURS, categoryColours, columnColours } from './draw';
import { useScheme } from '../palette';
import { MapCanvas } from './MapCanvas';
import './map.css';

const DISTORTION = 'A projection distorts distances: near on the map is not always near in the vector space; hover shows the true cosine.';

/** The corpus map tab: every sentence vector in 2-D, the query, and what each strategy retrieved. */
export function MapView() {
  const s = useMap();
  const columns = useResults((r) => r.columns);
  const question = useView((v) => v.view.query.trim());
  const data = shownProjection(s);
  const scheme = useScheme();
  const all = useMemo(() => highlightsOf(columns), [columns]);
  const visible = useMemo(() => all.filter((h) => !s.hidden[h.column.id]), [all, s.hidden]);
  const valid = data ? visible.filter((h) => h.sentences.every((i) => i < data.n)) : [];
  const query = s.query && data && s.query.key === data.key && s.query.method === data.method ? s.query.xy : null;

  return (
    <section className="map-view" aria-label="Map of the corpus">
      <div className="map-controls">
        <label>
          Projection{' '}
          <select value={s.method} onChange={(e) => setMethod(e.target.value as 'pca' | 'umap')} aria-label="Projection">
            <option value="pca">PCA (instant)</option>
            <option value="umap">UMAP (refined)</option>
          </select>
        </label>
        <label>
          Colour by{' '}
          <select value={s.colourBy} onChange={(e) => setColourBy(e.target.value as ColourBy)} aria-label="Colour by">
            <option value="document">document</option>
            <option value="section">section</option>
            <option value="language">language</option>
          </select>
        </label>
        {s.method === 'umap' && <UmapState />}
      </div>
      <p className="map-honest">{DISTORTION}</p>
      {s.unavailable ? (
        <p className="map-empty" role="status">
          {s.unavailable}
        </p>
      ) : !data ? (
        <p className="map-empty" role="status">
          {s.error ?? 'Projecting the sentence vectors…'}
        </p>
      ) : (
        <>
          <MapCanvas
            data={data}
            colourBy={s.colourBy}
            highlights={valid}
            query={query}
            hover={s.hover?.index ?? null}
            label={`Map of ${data.n.toLocaleString('en')} sentences (${data.method.toUpperCase()})${query ? `, with the query as a ${scheme === 'dark' ? 'white' : 'black'} star` : ''}; ${valid.map((h) => `${h.column.label}: ${h.sentences.length} sentences`).join('; ') || 'no strategy highlighted'}`}
          />
          <HoverCard />
          <div className="map-side">
            <Legend all={all} question={question} hasQuery={query !== null} />
            <Colours data={data} colourBy={s.colourBy} />
            <ul className="map-notes small">
              {projectionNotes(data).map((n) => (
                <li key={n}>{n}</li>
              ))}
              {s.query && <li>Query: {s.query.how}.</li>}
              <li>
                {data.method.toUpperCase()} in {Math.round(data.ms).toLocaleString('en')} ms.
              </li>
            </ul>
          </div>
        </>
      )}
    </section>
  );
}

function UmapState() {
  const { umapState, umapReason, progress, umap } = useMap();
  if (umapState === 'ready' && umap) return <span className="small">UMAP ready</span>;
  if (umapState === 'unavailable') return <span className="small">{umapReason} Showing PCA.</span>;
  if (umapState === 'running') {
    const words = !progress
      ? 'starting'
      : progress.phase === 'graph'
        ? 'building the neighbour graph (the slow part)'
        : progress.phase === 'epochs'
          ? `epoch ${progress.done} of ${progress.total}`
          : progress.phase === 'place'
            ? `placing the sentences left out of the fit: ${progress.done.toLocaleString('en')} of ${progress.total.toLocaleString('en')}`
            : progress.phase;
    return (
      <span className="small" role="status">
        UMAP running: {words}; showing PCA meanwhile.{' '}
        {progress && progress.total > 0 && <progress value={progress.done} max={progress.total} aria-label="UMAP progress" />}
      </span>
    );
  }
  return null;
}

function Legend({ all, question, hasQuery }: { all: ReturnType<typeof highlightsOf>; question: string; hasQuery: boolean }) {
  const hidden = useMap((s) => s.hidden);
  const colourOf = columnColours(useScheme());
  return (
    <div className="map-legend">
      <h3>What each strategy retrieved</h3>
      {!question ? (
        <p className="small">Ask a question to see the query and what each strategy retrieved.</p>
      ) : (
        <p className="small">
          <span className="map-star" aria-hidden="true">★</span> the query{hasQuery ? '' : ' (being placed…)'}: “{question}”
        </p>
      )}
      <ul aria-label="Strategies on the map">
        {all.map((h) => (
          <li key={h.column.id}>
            <label>
              <input type="checkbox" checked={!hidden[h.column.id]} onChange={() => toggleColumn(h.column.id)} />
              <span className="map-swatch" style={{ borderColor: colourOf(h.column.id) }} aria-hidden="true" />
              {h.column.label}: {h.sentences.length} sentence{h.sentences.length === 1 ? '' : 's'} ({h.hits.length} hit{h.hits.length === 1 ? '' : 's'})
            </label>
          </li>
        ))}
      </ul>
      {all.length > 0 && <p className="small">Rings: the sentences a strategy hands over; filled dots: its retrieved (hit) sentences.</p>}
    </div>
  );
}

function Colours({ data, colourBy }: { data: ProjectionData; colourBy: ColourBy }) {
  const labels = colourBy === 'document' ? data.docTitles : colourBy === 'section' ? data.sections : data.languages;
  const shown = labels.slice(0, 14);
  const palette = categoryColours(useScheme());
  return (
    <div className="map-colours">
      <h3>Colours: {colourBy}</h3>
      <ul>
        {shown.map((l, i) => (
          <li key={`${i}:${l}`}>
            <span className="map-dot" style={{ background: palette[i % palette.length] }} aria-hidden="true" />
            {l}
          </li>
        ))}
      </ul>
      {labels.length > shown.length && <p className="small">…and {labels.length - shown.length} more ({CATEGORY_COLOURS.length} colours repeat).</p>}
    </div>
  );
}

function HoverCard() {
  const hover = useMap((s) => s.hover);
  if (!hover) return <p className="map-hover small">Hover a point to read its sentence; click it to open it in its document.</p>;
  const info = hover.info;
  return (
    <div className="map-hover" role="status" aria-label="Hovered sentence">
      {!info ? (
        <span className="small">sentence {hover.index + 1}…</span>
      ) : (
        <>
          <p className="map-hover-text">“{info.text}”</p>
          <p className="small">
            {info.docTitle}
            {sectionPathLabel(info.sectionPath, info.docTitle) ? ` › ${sectionPathLabel(info.sectionPath, info.docTitle)}` : ''} · {info.language}
            {info.cosine !== null ? ` · true cosine to the query ${info.cosine.toFixed(3)}` : ' · ask a question to see its cosine'}
          </p>
        </>
      )}
    </div>
  );
}
