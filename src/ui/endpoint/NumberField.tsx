/**
 * A number input for the generator and embedding settings: a value within [min, max] (whole
 * unless `integer` is false); an `optional` field may be emptied, which means "the model's own"
 * (null). Values below min are ignored while typing; above max they are clamped.
 */
import { useId } from 'react';

type Props = { label: string; name: string; min: number; max: number; step?: number; integer?: boolean; cls: 'g' | 'm' } & (
  | { optional: true; value: number | null; onValue: (n: number | null) => void }
  | { optional?: false; value: number; onValue: (n: number) => void }
);

export function NumberField(p: Props) {
  const id = useId();
  const { integer = true } = p;
  return (
    <label className={`${p.cls}-field`} htmlFor={id}>
      <span>{p.label}</span>
      <input
        id={id}
        aria-label={p.name}
        type="number"
        min={p.min}
        max={p.max}
        {...(p.step !== undefined ? { step: p.step } : {})}
        placeholder={p.optional ? 'model’s own' : undefined}
        value={p.value ?? ''}
        onChange={(e) => {
          if (p.optional && e.target.value.trim() === '') return p.onValue(null);
          const n = integer ? Math.round(Number(e.target.value)) : Number(e.target.value);
          if (Number.isFinite(n) && n >= p.min) p.onValue(Math.min(p.max, n));
        }}
      />
    </label>
  );
}
