/**
 * Small labelled controls for the parameters panel. Sliders come in two kinds: live ones
 * (every `input` event applies, for retrieval-only parameters) and ones that apply on
 * release (the native `change` event, for parameters that re-embed).
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

/**
 * Calls `handler` on the element's native `change` event (release of a slider, blur or
 * Enter in a number field). React's onChange fires on every `input` event instead.
 */
export function useNativeChange(ref: RefObject<HTMLInputElement | null>, handler: (el: HTMLInputElement) => void): void {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const listener = () => latest.current(el);
    el.addEventListener('change', listener);
    return () => el.removeEventListener('change', listener);
  }, [ref]);
}

interface SliderProps {
  label: string;
  min: number;
  max: number;
  step?: number;
  value: number;
  /** How the value is shown next to the slider. */
  format?: (n: number) => string;
  disabled?: boolean;
  hint?: ReactNode;
}

/** Rounds away binary noise from fractional steps (0.1 + 0.2). */
function clean(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function SliderRow({ id, label, shown, hint, children }: { id: string; label: string; shown: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="p-slider">
      <div className="p-slider-head">
        <label htmlFor={id}>{label}</label>
        <span className="p-value" aria-hidden="true">
          {shown}
        </span>
      </div>
      {children}
      {hint && <div className="p-hint">{hint}</div>}
    </div>
  );
}

/** A slider that applies on every input event (retrieval-only parameters). */
export function LiveSlider({ label, min, max, step = 1, value, format = String, disabled, hint, onInput }: SliderProps & { onInput: (n: number) => void }) {
  const id = useId();
  return (
    <SliderRow id={id} label={label} shown={format(value)} hint={hint}>
      <input
        id={id}
        type="range"
        aria-label={label}
        aria-valuetext={format(value)}
        min={min}
        // A value from a shared link may lie beyond the usual range: widen, never clamp silently.
        max={Math.max(max, value)}
        step={step}
        value={value}
        disabled={disabled}
        onChange={(e) => onInput(clean(Number(e.target.value)))}
      />
    </SliderRow>
  );
}

/**
 * A slider that shows its value while it moves but applies only on release, because each
 * applied value re-embeds the corpus.
 */
export function ReleaseSlider({ label, min, max, step = 1, value, format = String, disabled, hint, onCommit }: SliderProps & { onCommit: (n: number) => void }) {
  const id = useId();
  const ref = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState<number | null>(null);
  useNativeChange(ref, (el) => {
    const n = clean(Number(el.value));
    setDraft(null);
    if (n !== value) onCommit(n);
  });
  const shown = draft ?? value;
  return (
    <SliderRow id={id} label={label} shown={draft !== null && draft !== value ? `${format(shown)} (release to apply)` : format(shown)} hint={hint}>
      <input
        ref={ref}
        id={id}
        type="range"
        aria-label={label}
        aria-valuetext={format(shown)}
        min={Math.min(min, value)}
        max={Math.max(max, value)}
        step={step}
        value={shown}
        disabled={disabled}
        onChange={(e) => setDraft(clean(Number(e.target.value)))}
      />
    </SliderRow>
  );
}

/** A checkbox with its label text after it. */
export function Check({ label, checked, onChange, disabled, ariaLabel }: { label: ReactNode; checked: boolean; onChange: (b: boolean) => void; disabled?: boolean; ariaLabel?: string }) {
  return (
    <label className="p-check">
      <input type="checkbox" aria-label={ariaLabel} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}
