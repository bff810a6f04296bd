import { useRef, useState } from 'react';
import { UNIT_KINDS, type UnitKind } from '../../core/retrieve/params';
import type { HeaderField } from '../../core/structure/headers';
import { DEFAULT_PACKED } from '../../core/structure/packed-chunks';
import { DEFAULT_SEMANTIC } from '../../core/structure/semantic-chunks';
import { setStructure } from '../../state/controller';
import { useCorpus, useView } from '../../state/stores';
import { Check, ReleaseSlider, useNativeChange } from './controls';

const FIELDS: { value: HeaderField; label: string }[] = [
  { value: 'fileName', label: 'file name' },
  { value: 'page', label: 'page' },
  { value: 'date', label: 'date' },
  { value: 'author', label: 'author' },
  { value: 'language', label: 'language' },
  { value: 'tags', label: 'tags' },
];

const UNIT_PLURAL: Record<UnitKind, string> = { sentence: 'sentences', leaf: 'leaf chunks', chunk: 'naive chunks', packed: 'sentence-packed chunks', semantic: 'semantic chunks' };

const MIN_LEVEL = 16;
const MAX_LEVEL = 8192;

/** Why these chunk levels cannot be used, or null when they can. */
export function chunkLevelsProblem(raw: string[]): string | null {
  const levels = raw.map((x) => Number(x));
  for (let i = 0; i < raw.length; i++) {
    const n = levels[i]!;
    if (raw[i]!.trim() === '' || !Number.isInteger(n)) return `Level ${i + 1} must be a whole number of tokens.`;
    if (n < MIN_LEVEL || n > MAX_LEVEL) return `Level ${i + 1} must be between ${MIN_LEVEL} and ${MAX_LEVEL} tokens.`;
    if (i > 0 && n >= levels[i - 1]!) return `Each level must be smaller than the one before (level ${i + 1}: ${n} ≥ ${levels[i - 1]}).`;
  }
  return null;
}

/** The three (or, from a shared link, 1–4) chunk sizes, largest first; applied when valid on change. */
function ChunkLevels({ levels }: { levels: number[] }) {
  const [draft, setDraft] = useState<string[] | null>(null);
  const key = levels.join(',');
  const [prevKey, setPrevKey] = useState(key);
  // The applied levels changed (applied here, restored, shared link): show them.
  if (prevKey !== key) {
    setPrevKey(key);
    setDraft(null);
  }
  const box = useRef<HTMLFieldSetElement>(null);
  const shown = draft ?? levels.map(String);
  const problem = chunkLevelsProblem(shown);
  const commit = () => {
    // Read the fields themselves: a change event may arrive before React re-renders the draft.
    const raw = [...(box.current?.querySelectorAll('input') ?? [])].map((i) => i.value);
    if (raw.length !== levels.length || chunkLevelsProblem(raw)) return;
    const next = raw.map(Number);
    if (next.join(',') === levels.join(',')) return setDraft(null);
    void setStructure((s) => void (s.chunkLevels = next));
  };
  return (
    <fieldset className="p-levels" ref={box}>
      <legend>Chunk levels (tokens, largest first)</legend>
      <div className="p-level-row">
        {shown.map((value, i) => (
          <LevelInput
            key={i}
            index={i}
            count={shown.length}
            value={value}
            invalid={problem !== null}
            onEdit={(v) => setDraft(shown.map((x, j) => (j === i ? v : x)))}
            onCommit={commit}
          />
        ))}
      </div>
      {problem ? (
        <p className="p-error" role="alert">
          {problem} Not applied.
        </p>
      ) : (
        draft && <p className="p-hint">Press Enter or leave the field to apply.</p>
      )}
    </fieldset>
  );
}

function LevelInput({ index, count, value, invalid, onEdit, onCommit }: { index: number; count: number; value: string; invalid: boolean; onEdit: (v: string) => void; onCommit: () => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useNativeChange(ref, onCommit);
  const name = index === 0 && count > 1 ? 'largest' : index === count - 1 ? 'leaf' : 'middle';
  return (
    <label className="p-level">
      <input
        ref={ref}
        type="number"
        aria-label={`Chunk level ${index + 1}`}
        aria-invalid={invalid}
        min={MIN_LEVEL}
        max={MAX_LEVEL}
        step={1}
        value={value}
        onChange={(e) => onEdit(e.target.value)}
      />
      <span className="p-hint">{name}</span>
    </label>
  );
}

/** "Embedding leaf chunks… 120/400 · ~12 s left" while vectors are being computed. */
function EmbeddingLine() {
  const embedding = useCorpus((s) => s.status?.embedding);
  if (!embedding) return null;
  if (embedding.error) return <p className="p-error">Embedding stopped: {embedding.error}</p>;
  if (!embedding.running) return null;
  const c = embedding.coverage;
  const { done, total } = embedding.unit ? (embedding.progress ?? c[embedding.unit]) : { done: UNIT_KINDS.reduce((n, k) => n + (c[k]?.done ?? 0), 0), total: UNIT_KINDS.reduce((n, k) => n + (c[k]?.total ?? 0), 0) };
  return (
    <p className="p-embedding" aria-live="polite">
      {embedding.unit ? `Embedding ${UNIT_PLURAL[embedding.unit]}… ${done}/${total}` : `Embedding… ${done}/${total} units`}
      {embedding.etaS !== undefined ? ` · ~${Math.ceil(embedding.etaS)} s left` : ''}
    </p>
  );
}

/** A sentence as the page shows it: capital first, one full stop. */
const sentence = (x: string) => `${x.charAt(0).toUpperCase()}${x.slice(1).replace(/\.$/, '')}.`;

/**
 * Late chunking (docs/context-techniques.md): off and disabled, with the model's reason, when
 * the loaded model gives no token vectors (static, endpoint, pooled-output models).
 */
function LateChunkingSwitch({ on }: { on: boolean }) {
  const model = useCorpus((st) => st.status?.embedder);
  const late = model?.state === 'ready' ? model.lateChunking : undefined;
  const reason = late && !late.available ? late.reason : null;
  return (
    <div className="p-late">
      <Check
        label="Late chunking"
        ariaLabel="Late chunking"
        checked={on && !reason}
        disabled={reason !== null}
        onChange={(b) => void setStructure((st) => void (st.vectors = b ? 'late' : 'plain'))}
      />
      <p className="p-hint">Each unit&apos;s vector pools its own tokens read with the rest of its document around them; the plain vectors are kept, so switching back is instant.</p>
      {reason && (
        <p className="p-hint" role="note" aria-label="Late chunking not available">
          {sentence(reason)}
        </p>
      )}
      {on && late?.available && late.note && <p className="p-hint">{sentence(late.note)}</p>}
      {on && model?.state !== 'ready' && <p className="p-hint">Applies once an embedding model that gives token vectors is loaded.</p>}
    </div>
  );
}

/** Parameters that change the embedded text: each applied change re-embeds (variants are cached). */
export function StructureControls() {
  const s = useView((st) => st.view.structure);
  const h = s.headers;
  // Views saved before these chunkers existed hold no value for them.
  const packed = s.packed ?? DEFAULT_PACKED;
  const semantic = s.semantic ?? DEFAULT_SEMANTIC;
  return (
    <div className="p-group p-structure">
      <h3>Re-embeds when changed</h3>
      <p className="p-hint">These change the text that is embedded, so each change computes new vectors (settings used before are cached).</p>
      <EmbeddingLine />

      <Check
        label="Contextual chunk headers"
        ariaLabel="Contextual chunk headers"
        checked={h.enabled}
        onChange={(b) => void setStructure((st) => void (st.headers.enabled = b))}
      />
      <fieldset className={`p-list p-inline${h.enabled ? '' : ' p-muted'}`}>
        <legend>Header holds{h.enabled ? '' : ' (when headers are on)'}</legend>
        <Check label="title" checked={h.title} onChange={(b) => void setStructure((st) => void (st.headers.title = b))} />
        <Check label="section path" checked={h.section} onChange={(b) => void setStructure((st) => void (st.headers.section = b))} />
        {FIELDS.map((f) => (
          <Check
            key={f.value}
            label={f.label}
            checked={h.fields.includes(f.value)}
            onChange={(on) =>
              void setStructure((st) => {
                // Kept in a fixed order, so the same choice always gives the same header.
                const set = new Set(st.headers.fields.filter((x) => x !== f.value));
                if (on) set.add(f.value);
                st.headers.fields = FIELDS.map((x) => x.value).filter((x) => set.has(x));
              })
            }
          />
        ))}
      </fieldset>
      <LateChunkingSwitch on={s.vectors === 'late'} />

      <ChunkLevels levels={s.chunkLevels} />

      <ReleaseSlider
        label="Section level"
        min={0}
        max={6}
        value={s.sectionLevel}
        format={(n) => (n === 0 ? '0 (documents only)' : `${n} (h1–h${n})`)}
        hint="Chunks and section-bounded windows stay inside sections of this level."
        onCommit={(n) => void setStructure((st) => void (st.sectionLevel = n))}
      />
      <ReleaseSlider
        label="Naive chunk size"
        min={32}
        max={2048}
        step={16}
        value={s.naive.size}
        format={(n) => `${n} tokens`}
        onCommit={(n) =>
          void setStructure((st) => {
            st.naive.size = n;
            // The overlap must stay below the chunk size.
            if (st.naive.overlap >= n) st.naive.overlap = Math.floor(n / 2);
          })
        }
      />
      <ReleaseSlider
        label="Naive overlap"
        min={0}
        max={Math.max(0, Math.floor(s.naive.size / 2))}
        value={s.naive.overlap}
        format={(n) => `${n} tokens`}
        onCommit={(n) => void setStructure((st) => void (st.naive.overlap = Math.min(n, st.naive.size - 1)))}
      />
      <ReleaseSlider
        label="Packed chunk size"
        min={32}
        max={2048}
        step={16}
        value={packed.size}
        format={(n) => `${n} tokens`}
        hint="Sentence-packed chunks: whole sentences up to this size (LlamaIndex SentenceSplitter)."
        onCommit={(n) =>
          void setStructure((st) => {
            st.packed = { ...packed, size: n };
            if (st.packed.overlap >= n) st.packed.overlap = Math.floor(n / 2);
          })
        }
      />
      <ReleaseSlider
        label="Packed overlap"
        min={0}
        max={Math.max(0, Math.floor(packed.size / 2))}
        value={packed.overlap}
        format={(n) => `${n} tokens`}
        hint="Whole sentences from the end of the previous chunk, while they fit in this many tokens."
        onCommit={(n) => void setStructure((st) => void (st.packed = { ...packed, overlap: Math.min(n, packed.size - 1) }))}
      />
      <ReleaseSlider
        label="Semantic buffer"
        min={0}
        max={5}
        value={semantic.buffer}
        format={(n) => `±${n} sent.`}
        hint="Semantic chunks (LlamaIndex SemanticSplitterNodeParser): each sentence is embedded with this many neighbours on each side. Needs an embedding model."
        onCommit={(n) => void setStructure((st) => void (st.semantic = { ...semantic, buffer: n }))}
      />
      <ReleaseSlider
        label="Semantic breakpoint percentile"
        min={50}
        max={100}
        value={semantic.percentile}
        format={(n) => `${n}th`}
        hint="A chunk ends where the distance between neighbouring sentences is above this percentile of the document's distances."
        onCommit={(n) => void setStructure((st) => void (st.semantic = { ...semantic, percentile: n }))}
      />
    </div>
  );
}
