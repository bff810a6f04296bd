import type { Difference } from '../../core/eval/bootstrap';
import { formatMargin, intervalWords, NOT_DISTINGUISHABLE } from './analysis';

/**
 * A table cell with a paired difference from the baseline and its 95 % interval, greyed and said
 * when the interval holds 0; "baseline" for the baseline itself, a dash where none was measured.
 */
export function DifferenceCell({ d, isBaseline }: { d: Difference | null; isBaseline: boolean }) {
  if (!d) return <td className="num">{isBaseline ? 'baseline' : '–'}</td>;
  return (
    <td className={`num${d.distinguishable ? '' : ' eval-nd'}`}>
      {formatMargin(d.mean)}
      <span className="eval-ci">{intervalWords(d)}</span>
      {d.distinguishable ? null : <span className="eval-ci">{NOT_DISTINGUISHABLE}</span>}
    </td>
  );
}
