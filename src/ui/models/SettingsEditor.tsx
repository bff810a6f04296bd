/**
 * The chosen model's settings as fields, prefilled from its preset (or the guesses, each
 * marked), with "Reset to preset"; and its output size where the preset lists Matryoshka
 * sizes. Nothing changes before Load: the picker applies the draft.
 */
import { useId, useState } from 'react';
import type { Pooling } from '../../core/embed/presets';
import { outputSizes } from '../../state/url-state-embedder';
import type { SettingsDraft, SettingsView } from './settings-draft';

const POOLING_LABELS: Record<Pooling, string> = { mean: 'mean', cls: 'CLS (first token)', last: 'last token', model: 'the model’s own pooled output' };

interface Props {
  model: string;
  draft: SettingsDraft;
  view: SettingsView;
  onDraft: (d: SettingsDraft) => void;
}

export function SettingsEditor({ model, draft, view, onDraft }: Props) {
  const ids = useId();
  const { base, guessed, changed } = view;
  // Guesses should be checked against the model card: open from the start for an unknown model.
  const [open, setOpen] = useState(guessed.length > 0 || changed.length > 0 || draft.dimensions !== undefined);
  const mark = (k: 'queryPrefix' | 'passagePrefix' | 'pooling' | 'maxTokens') => (guessed.includes(k) ? ' (guessed)' : changed.includes(k) ? ' (changed)' : '');
  const set = (change: Partial<SettingsDraft>) => onDraft({ ...draft, ...change });
  const sizes = outputSizes(model);
  const poolings: Pooling[] = base.pooling === 'model' || draft.pooling === 'model' ? ['model', 'mean', 'cls', 'last'] : ['mean', 'cls', 'last'];
  const edited = Object.values(draft).some((v) => v !== undefined);
  return (
    <>
      {sizes.length > 0 && (
        <label className="m-field" htmlFor={`${ids}-dims`}>
          <span>Output size (Matryoshka){draft.dimensions !== undefined && draft.dimensions !== base.dim ? ' (changed)' : ''}</span>
          <select id={`${ids}-dims`} value={draft.dimensions ?? base.dim} onChange={(e) => set({ dimensions: Number(e.target.value) === base.dim ? undefined : Number(e.target.value) })}>
            {sizes.map((n) => (
              <option key={n} value={n}>
                {n === base.dim ? `${n} dimensions (full size)` : `${n} dimensions`}
              </option>
            ))}
          </select>
        </label>
      )}
      <details className="m-edit" open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
        <summary>Change settings{changed.length ? ` (${changed.length} changed)` : ''}</summary>
        <div className="m-edit-body">
          <label className="m-field" htmlFor={`${ids}-q`}>
            <span>Query prefix{mark('queryPrefix')}</span>
            <input id={`${ids}-q`} spellCheck={false} value={draft.queryPrefix ?? base.queryPrefix} placeholder="none" onChange={(e) => set({ queryPrefix: e.target.value })} />
          </label>
          <label className="m-field" htmlFor={`${ids}-p`}>
            <span>Passage prefix{mark('passagePrefix')}</span>
            <input id={`${ids}-p`} spellCheck={false} value={draft.passagePrefix ?? base.passagePrefix} placeholder="none" onChange={(e) => set({ passagePrefix: e.target.value })} />
          </label>
          <div className="m-grid2">
            {base.architecture === 'static' ? (
              <p className="m-small">Pooling: a static model averages its token table (no choice).</p>
            ) : (
              <label className="m-field" htmlFor={`${ids}-pool`}>
                <span>Pooling{mark('pooling')}</span>
                <select id={`${ids}-pool`} value={draft.pooling ?? base.pooling} onChange={(e) => set({ pooling: e.target.value as Pooling })}>
                  {poolings.map((p) => (
                    <option key={p} value={p}>
                      {POOLING_LABELS[p]}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <label className="m-field" htmlFor={`${ids}-max`}>
              <span>Maximum length (tokens){mark('maxTokens')}</span>
              <input
                id={`${ids}-max`}
                inputMode="numeric"
                value={draft.maxTokens ?? String(base.maxTokens)}
                aria-invalid={view.problem?.startsWith('Maximum length') || undefined}
                onChange={(e) => set({ maxTokens: e.target.value })}
              />
            </label>
          </div>
          <label className="m-check" htmlFor={`${ids}-norm`}>
            <input id={`${ids}-norm`} type="checkbox" checked disabled /> Normalise (L2)
          </label>
          <p className="m-small">Always on: every search here is by cosine, which normalises each vector anyway.</p>
          {view.problem && (
            <p className="m-small m-problem" role="alert">
              {view.problem}
            </p>
          )}
          <p className="m-small">Other settings make other vectors, kept apart from the preset’s; going back re-uses its vectors.</p>
          <button type="button" disabled={!edited} onClick={() => onDraft({})}>
            {view.base.source.startsWith('guessed') ? 'Reset to the guesses' : 'Reset to preset'}
          </button>
        </div>
      </details>
    </>
  );
}
