import { useRef, type KeyboardEvent } from 'react';
import { tabAfterKey } from './tab-keys';

export const tabId = (id: string) => `view-tab-${id}`;
export const panelId = (id: string) => `view-panel-${id}`;

interface Props<V extends string> {
  views: { id: V; label: string }[];
  current: V;
  onChoose: (v: V) => void;
}

/**
 * The views as an ARIA tab list (WAI-ARIA APG, automatic activation): one tab in the Tab
 * order (roving tabindex), arrow keys move and choose, Home and End go to the ends.
 */
export function ViewTabs<V extends string>({ views, current, onChoose }: Props<V>) {
  const refs = useRef(new Map<V, HTMLButtonElement>());
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = views.findIndex((v) => v.id === current);
    const to = tabAfterKey(e.key, at, views.length);
    if (to === null) return;
    e.preventDefault();
    const next = views[to]!.id;
    onChoose(next);
    refs.current.get(next)?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label="Views" onKeyDown={onKeyDown}>
      {views.map((v) => (
        <button
          key={v.id}
          ref={(el) => void (el ? refs.current.set(v.id, el) : refs.current.delete(v.id))}
          type="button"
          role="tab"
          id={tabId(v.id)}
          aria-selected={v.id === current}
          aria-controls={v.id === current ? panelId(v.id) : undefined}
          tabIndex={v.id === current ? 0 : -1}
          onClick={() => onChoose(v.id)}
        >
          {v.label}
        </button>
      ))}
    </div>
  );
}
