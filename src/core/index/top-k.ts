import type { Hit } from './vector-index';

/**
 * Keeps the k best hits with a min-heap: O(n log k) instead of sorting all n scores.
 * Ties are broken by the smaller id, so results are deterministic. Scores are kept as
 * float32 (what the vector index returns) unless `precise` asks for float64.
 */
export class TopK {
  private readonly ids: Int32Array;
  private readonly scores: Float32Array | Float64Array;
  private n = 0;

  constructor(
    private readonly k: number,
    precise = false,
  ) {
    this.ids = new Int32Array(Math.max(0, k));
    this.scores = precise ? new Float64Array(Math.max(0, k)) : new Float32Array(Math.max(0, k));
  }

  /** Is (score, id) worse than the heap entry at i? */
  private worse(score: number, id: number, i: number): boolean {
    const s = this.scores[i]!;
    return score < s || (score === s && id > this.ids[i]!);
  }

  /** The score a new hit must beat to enter (−∞ while not full). */
  get threshold(): number {
    return this.n < this.k ? -Infinity : this.scores[0]!;
  }

  push(id: number, score: number): void {
    if (this.k <= 0) return;
    if (this.n < this.k) {
      let i = this.n++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(score, id, p)) break;
        this.ids[i] = this.ids[p]!;
        this.scores[i] = this.scores[p]!;
        i = p;
      }
      this.ids[i] = id;
      this.scores[i] = score;
      return;
    }
    // Full: the root is the worst kept hit; replace it only by a better one, then sift down.
    if (!worseThan(this.scores[0]!, this.ids[0]!, score, id)) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.n) break;
      const r = l + 1;
      const c = r < this.n && worseThan(this.scores[r]!, this.ids[r]!, this.scores[l]!, this.ids[l]!) ? r : l;
      if (!worseThan(this.scores[c]!, this.ids[c]!, score, id)) break;
      this.ids[i] = this.ids[c]!;
      this.scores[i] = this.scores[c]!;
      i = c;
    }
    this.ids[i] = id;
    this.scores[i] = score;
  }

  /** Best first. */
  result(): Hit[] {
    const out: Hit[] = [];
    for (let i = 0; i < this.n; i++) out.push({ id: this.ids[i]!, score: this.scores[i]! });
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }
}

function worseThan(s1: number, id1: number, s2: number, id2: number): boolean {
  return s1 < s2 || (s1 === s2 && id1 > id2);
}
