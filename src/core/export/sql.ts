import { Utf8Writer } from './bytes';
import { writeFloat32 } from './float-text';
import { TABLES, type ColumnSpec, type Table, type TableName } from './format';
import type { Manifest } from './manifest';

/**
 * PostgreSQL + pgvector: the schema, the data as COPY blocks that `psql -f` loads as
 * they are (PGlite loads them through copy-reader.ts), and SQL functions that reproduce
 * the lab's retrieval from these tables alone. Everything lives in the schema `raglab`.
 */

const SQL_TYPES: Record<ColumnSpec['type'], string> = {
  int: 'integer',
  double: 'double precision',
  string: 'text',
  bool: 'boolean',
  json: 'jsonb',
  'int[]': 'integer[]',
  float32vec: 'vector',
};

const KEYS: Partial<Record<TableName, string>> = {
  documents: 'doc',
  sections: 'doc, section',
  pages: 'doc, page',
  sentences: 'sentence',
  units: 'kind, id',
  vectors: 'kind, unit',
  postings: 'kind, term, unit',
  unit_lengths: 'kind, unit',
  bm25_stats: 'kind',
};

export function schemaSql(dims: number | null): string {
  const lines = [
    '-- RAG Context Lab bundle: tables. Load with: psql -v ON_ERROR_STOP=1 -f schema.sql -f data.sql -f functions.sql',
    '-- Needs PostgreSQL 13+ and pgvector 0.5+ (a single server, a managed service, or Citus).',
    'CREATE EXTENSION IF NOT EXISTS vector;',
    'CREATE SCHEMA IF NOT EXISTS raglab;',
    "CREATE TABLE raglab.config (key text PRIMARY KEY, value jsonb NOT NULL);",
  ];
  for (const [name, specs] of Object.entries(TABLES) as [TableName, ColumnSpec[]][]) {
    const cols = specs.map((s) => {
      const type = s.type === 'float32vec' ? (dims ? `vector(${dims})` : 'vector') : SQL_TYPES[s.type];
      return `  ${quoteIdent(s.name)} ${type}${s.nullable ? '' : ' NOT NULL'}`;
    });
    const key = KEYS[name];
    lines.push(`CREATE TABLE raglab.${name} (\n${cols.join(',\n')}${key ? `,\n  PRIMARY KEY (${key})` : ''}\n);`);
  }
  lines.push('CREATE INDEX ON raglab.headers (doc, section);');
  lines.push('CREATE INDEX ON raglab.units (node);');
  return lines.join('\n') + '\n';
}

function quoteIdent(s: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(s) && !['text', 'section', 'level', 'id'].includes(s) ? s : `"${s}"`;
}

/** COPY text format: backslash escapes for the four characters that would break a row. */
function copyText(s: string): string {
  return s.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
}

/** COPY text of a cell, written as bytes. */
function writeCopyValue(out: Utf8Writer, spec: ColumnSpec, v: unknown): void {
  if (v === null || v === undefined) return out.ascii('\\N');
  switch (spec.type) {
    case 'bool':
      return out.byte(v ? 0x74 : 0x66); // t, f
    case 'int[]':
      return out.ascii(`{${(v as number[]).join(',')}}`);
    case 'float32vec': {
      // The shortest text that pgvector's strtof reads back to the same float32.
      const f = v as Float32Array;
      out.byte(0x5b); // [
      for (let i = 0; i < f.length; i++) {
        if (i) out.byte(0x2c); // ,
        writeFloat32(out, f[i]!);
      }
      return out.byte(0x5d); // ]
    }
    case 'int':
    case 'double':
      // String(x) is the shortest text that reads back to the same double.
      return Number.isInteger(v) ? out.int(v as number) : out.ascii(String(v));
    default:
      return out.text(copyText(String(v)));
  }
}

/**
 * The data: config rows, then one COPY … FROM stdin block per table, each ending in \.
 * Written row by row as bytes (bytes.ts): at 100k sentences it is far longer than a string can be.
 */
export function dataSql(tables: Table[], manifest: Omit<Manifest, 'files'>): Uint8Array {
  const out = new Utf8Writer();
  out.ascii('-- RAG Context Lab bundle: data (COPY blocks; psql -f loads them as they are)\n');
  const config: [string, unknown][] = [
    ['strategy', manifest.strategy],
    ['params', manifest.params],
    ['structure', manifest.structure],
    ['embedding', manifest.embedding],
    ['lab', manifest.lab],
  ];
  out.ascii('COPY raglab.config (key, value) FROM stdin;\n');
  for (const [k, v] of config) out.text(`${k}\t${copyText(JSON.stringify(v))}\n`);
  out.ascii('\\.\n');
  for (const t of tables) {
    const specs = TABLES[t.name];
    out.ascii(`COPY raglab.${t.name} (${specs.map((s) => quoteIdent(s.name)).join(', ')}) FROM stdin;\n`);
    const cols = specs.map((s) => t.columns[s.name]!);
    for (let i = 0; i < t.rows; i++) {
      for (let j = 0; j < specs.length; j++) {
        if (j) out.byte(0x09); // tab
        writeCopyValue(out, specs[j]!, cols[j]![i]);
      }
      out.byte(0x0a);
    }
    out.ascii('\\.\n');
  }
  out.ascii('ANALYZE;\n');
  return out.bytes();
}

/**
 * The lab's retrieval in SQL, from the tables alone. Each function mirrors one step of
 * the lab (src/core/retrieve, src/core/index) including its float steps and tie order,
 * so ranked ids, block ranges and scores agree (the golden run checks it).
 */
export const FUNCTIONS_SQL = String.raw`-- RAG Context Lab bundle: retrieval functions (PL/pgSQL + pgvector).
-- One call returns a question's blocks:
--   SELECT * FROM raglab.search('window', ARRAY['who','founded','the','city'], '[0.01,…]'::vector);
-- Query terms come from the lab's analyzer (golden.json holds them per question; see manifest.json "bm25").
-- The query vector must be the model's L2-normalised embedding of the question.

-- Units that can be retrieved, with the exported metadata filters applied.
CREATE OR REPLACE VIEW raglab.retrievable AS
  SELECT 'sentence'::text AS kind, sentence AS unit, allowed FROM raglab.sentences
  UNION ALL SELECT kind, id, allowed FROM raglab.units WHERE kind IN ('leaf', 'chunk');

-- The exported parameters, with top-level keys overridden by p_override (pass whole nested objects).
CREATE OR REPLACE FUNCTION raglab.params(p_override jsonb DEFAULT NULL) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT value || coalesce(p_override, '{}'::jsonb) FROM raglab.config WHERE key = 'params'
$$;

-- A JavaScript string slice (UTF-16 offsets, as the lab counts characters) of a text.
CREATE OR REPLACE FUNCTION raglab.utf16_slice(t text, a integer, b integer) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  i integer := 1; u integer := 0; cs integer; ce integer; n integer := length(t);
BEGIN
  IF t !~ '[\U00010000-\U0010FFFF]' THEN RETURN substr(t, a + 1, b - a); END IF;
  WHILE i <= n + 1 LOOP
    IF u = a AND cs IS NULL THEN cs := i; END IF;
    IF u = b THEN ce := i; EXIT; END IF;
    EXIT WHEN i > n;
    u := u + CASE WHEN ascii(substr(t, i, 1)) > 65535 THEN 2 ELSE 1 END;
    i := i + 1;
  END LOOP;
  RETURN substr(t, coalesce(cs, 1), coalesce(ce, n + 1) - coalesce(cs, 1));
END $$;

-- The deepest section holding sections a and b of a document (their common ancestor).
CREATE OR REPLACE FUNCTION raglab.common_section(p_doc integer, a integer, b integer) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT x FROM unnest(sb.ancestors) WITH ORDINALITY AS u(x, i) WHERE x = ANY (sa.ancestors) ORDER BY i DESC LIMIT 1), 0)
  FROM raglab.sections sa, raglab.sections sb
  WHERE sa.doc = p_doc AND sa.section = a AND sb.doc = p_doc AND sb.section = b
$$;

-- The contextual header of a block over sentences [p_start, p_end) and its tokens ('' and 0 when headers are off).
CREATE OR REPLACE FUNCTION raglab.header_of(p_start integer, p_end integer, OUT header text, OUT tokens integer)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  hp jsonb; a record; b record; sec integer; pf integer; pl integer;
BEGIN
  SELECT value -> 'headers' INTO hp FROM raglab.config WHERE key = 'structure';
  IF NOT coalesce((hp ->> 'enabled')::boolean, false) THEN header := ''; tokens := 0; RETURN; END IF;
  SELECT s.doc, s.section, s.page INTO a FROM raglab.sentences s WHERE s.sentence = p_start;
  SELECT s.doc, s.section, s.page INTO b FROM raglab.sentences s WHERE s.sentence = p_end - 1;
  sec := CASE WHEN (hp ->> 'section')::boolean THEN raglab.common_section(a.doc, a.section, b.section) ELSE 0 END;
  IF hp -> 'fields' ? 'page' THEN pf := a.page; pl := b.page; END IF;
  SELECT h.header, h.tokens INTO header, tokens FROM raglab.headers h
   WHERE h.doc = a.doc AND h.section = sec AND h.page_first IS NOT DISTINCT FROM pf AND h.page_last IS NOT DISTINCT FROM pl;
  IF NOT FOUND THEN RAISE EXCEPTION 'raglab: no header row for sentences % to %', p_start, p_end; END IF;
END $$;

-- Tokens a block over sentences [p_start, p_end) costs in the context, header included.
CREATE OR REPLACE FUNCTION raglab.block_cost(p_start integer, p_end integer) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT (e.tokens_before + e.tokens - s.tokens_before) + (raglab.header_of(p_start, p_end)).tokens
  FROM raglab.sentences s, raglab.sentences e WHERE s.sentence = p_start AND e.sentence = p_end - 1
$$;

-- The BM25 variant the bundle was exported with (manifest.json "bm25".variant): 'lucene' or 'bm25plus'.
CREATE OR REPLACE FUNCTION raglab.bm25_variant() RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT value #>> '{lexical,bm25}' FROM raglab.config WHERE key = 'structure'), 'bm25plus')
$$;

-- MiniSearch's BM25+ exactly as the lab scores it (see manifest.json "bm25"), top p_k units.
CREATE OR REPLACE FUNCTION raglab.bm25plus_search(p_kind text, p_terms text[], p_k integer)
RETURNS TABLE (unit integer, score double precision)
LANGUAGE sql STABLE AS $$
  WITH q AS (
    SELECT t.term, t.pos FROM unnest(p_terms) WITH ORDINALITY AS t(term, pos) WHERE t.term <> ''
  ), st AS (
    SELECT s.units::double precision AS n, s.avg_length, s.k1, s.b, s.delta FROM raglab.bm25_stats s WHERE s.kind = p_kind
  ), df AS (
    SELECT p.term, count(*)::double precision AS df FROM raglab.postings p
     WHERE p.kind = p_kind AND p.term IN (SELECT term FROM q) GROUP BY p.term
  ), hits AS (
    SELECT p.unit, q.pos, q.term,
           ln(1 + (st.n - df.df + 0.5) / (df.df + 0.5))
             * (st.delta + (p.tf * (st.k1 + 1)) / (p.tf + st.k1 * (1 - st.b + (st.b * l.length) / st.avg_length))) AS s
      FROM q
      JOIN raglab.postings p ON p.kind = p_kind AND p.term = q.term
      JOIN df ON df.term = q.term
      JOIN raglab.unit_lengths l ON l.kind = p_kind AND l.unit = p.unit
      CROSS JOIN st
  ), agg AS (
    -- Summed in query order, as the lab adds them; times the distinct query terms matched.
    SELECT h.unit, sum(h.s ORDER BY h.pos) * count(DISTINCT h.term) AS score, min(h.pos) AS first_pos
      FROM hits h GROUP BY h.unit
  )
  SELECT a.unit, a.score FROM agg a
    JOIN raglab.retrievable r ON r.kind = p_kind AND r.unit = a.unit AND r.allowed
   ORDER BY a.score DESC, a.first_pos, a.unit
   LIMIT p_k
$$;

-- Lucene's BM25 exactly as the lab scores it (see manifest.json "bm25"): length in tokens, no
-- matched-term multiplier, summed in query order; ties go to the smaller unit id. Top p_k units.
CREATE OR REPLACE FUNCTION raglab.lucene_bm25_search(p_kind text, p_terms text[], p_k integer)
RETURNS TABLE (unit integer, score double precision)
LANGUAGE sql STABLE AS $$
  WITH q AS (
    SELECT t.term, t.pos FROM unnest(p_terms) WITH ORDINALITY AS t(term, pos) WHERE t.term <> ''
  ), st AS (
    SELECT s.units::double precision AS n, s.avg_length, s.k1, s.b FROM raglab.bm25_stats s WHERE s.kind = p_kind
  ), df AS (
    SELECT p.term, count(*)::double precision AS df FROM raglab.postings p
     WHERE p.kind = p_kind AND p.term IN (SELECT term FROM q) GROUP BY p.term
  ), hits AS (
    SELECT p.unit, q.pos,
           (ln(1 + (st.n - df.df + 0.5) / (df.df + 0.5)) * p.tf)
             / (p.tf + st.k1 * (1 - st.b + (st.b * l.length) / st.avg_length)) AS s
      FROM q
      JOIN raglab.postings p ON p.kind = p_kind AND p.term = q.term
      JOIN df ON df.term = q.term
      JOIN raglab.unit_lengths l ON l.kind = p_kind AND l.unit = p.unit
      CROSS JOIN st
  ), agg AS (
    SELECT h.unit, sum(h.s ORDER BY h.pos) AS score FROM hits h GROUP BY h.unit
  )
  SELECT a.unit, a.score FROM agg a
    JOIN raglab.retrievable r ON r.kind = p_kind AND r.unit = a.unit AND r.allowed
   ORDER BY a.score DESC, a.unit
   LIMIT p_k
$$;

-- BM25 as the lab scored it for this bundle: the exported variant's function, best first.
CREATE OR REPLACE FUNCTION raglab.bm25_search(p_kind text, p_terms text[], p_k integer)
RETURNS TABLE (unit integer, score double precision)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF raglab.bm25_variant() = 'lucene' THEN
    RETURN QUERY SELECT t.unit, t.score FROM raglab.lucene_bm25_search(p_kind, p_terms, p_k) t;
  ELSE
    RETURN QUERY SELECT t.unit, t.score FROM raglab.bm25plus_search(p_kind, p_terms, p_k) t;
  END IF;
END $$;

-- Exact cosine top-k as the lab's flat index computes it: pgvector finds the nearest units, and
-- those within float32 error of the k-th are re-scored in float8 (the lab's order of additions),
-- rounded to float32 like the lab's scores; ties go to the smaller unit id.
CREATE OR REPLACE FUNCTION raglab.vector_search(p_kind text, p_query vector, p_k integer)
RETURNS TABLE (unit integer, score double precision)
LANGUAGE sql STABLE AS $$
  WITH cand AS (
    SELECT v.unit, v.embedding FROM raglab.vectors v
      JOIN raglab.retrievable r ON r.kind = p_kind AND r.unit = v.unit AND r.allowed
     WHERE v.kind = p_kind
  ), kth AS (
    SELECT max(d) AS d FROM (SELECT c.embedding <#> p_query AS d FROM cand c ORDER BY c.embedding <#> p_query LIMIT p_k) t
  ), pool AS (
    SELECT c.unit, c.embedding FROM cand c WHERE (c.embedding <#> p_query) <= (SELECT d FROM kth) + 1e-4
  ), scored AS (
    SELECT pool.unit,
           (SELECT sum(x.a::double precision * x.b::double precision ORDER BY x.i)
              FROM unnest(pool.embedding::real[], p_query::real[]) WITH ORDINALITY AS x(a, b, i))::real::double precision AS score
      FROM pool
  )
  SELECT s.unit, s.score FROM scored s ORDER BY s.score DESC, s.unit LIMIT p_k
$$;

-- Candidate units of a kind: BM25, vector, or both fused with weighted RRF (each list fetched 2 x top-k).
CREATE OR REPLACE FUNCTION raglab.candidates(p_kind text, p_terms text[], p_query vector, p_params jsonb DEFAULT NULL)
RETURNS TABLE (rank integer, unit integer, score double precision, bm25_rank integer, bm25_score double precision, vector_rank integer, vector_score double precision)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  p jsonb := raglab.params(p_params);
  k integer := (p ->> 'topK')::integer;
  retriever text := p ->> 'retriever';
  c double precision := (p #>> '{rrf,c}')::double precision;
  wb double precision := (p #>> '{rrf,weights,bm25}')::double precision;
  wv double precision := (p #>> '{rrf,weights,vector}')::double precision;
  want_vector boolean;
  want_bm25 boolean;
  fetch_n integer;
BEGIN
  IF k = 0 THEN RETURN; END IF;
  want_vector := retriever <> 'bm25' AND p_query IS NOT NULL AND EXISTS (SELECT 1 FROM raglab.vectors v WHERE v.kind = p_kind);
  want_bm25 := retriever <> 'vector' OR NOT want_vector;
  fetch_n := CASE WHEN retriever = 'hybrid' AND want_vector THEN 2 * k ELSE k END;
  IF want_bm25 AND want_vector THEN
    RETURN QUERY
    WITH b AS (SELECT t.unit, t.score, t.ord::integer AS r FROM raglab.bm25_search(p_kind, p_terms, fetch_n) WITH ORDINALITY AS t(unit, score, ord)),
         v AS (SELECT t.unit, t.score, t.ord::integer AS r FROM raglab.vector_search(p_kind, p_query, fetch_n) WITH ORDINALITY AS t(unit, score, ord)),
         nb AS (SELECT count(*)::integer AS n FROM b),
         f AS (
           SELECT coalesce(b.unit, v.unit) AS u,
                  CASE WHEN b.unit IS NOT NULL AND v.unit IS NOT NULL THEN wb / (c + b.r) + wv / (c + v.r)
                       WHEN b.unit IS NOT NULL THEN wb / (c + b.r)
                       ELSE wv / (c + v.r) END AS s,
                  -- first-seen order: the BM25 list first, then units only the vector list found
                  coalesce(b.r, (SELECT n FROM nb) + v.r) AS seen,
                  b.r AS br, b.score AS bs, v.r AS vr, v.score AS vs
             FROM b FULL JOIN v ON b.unit = v.unit)
    SELECT (row_number() OVER (ORDER BY f.s DESC, f.seen))::integer, f.u, f.s, f.br, f.bs, f.vr, f.vs
      FROM f WHERE f.s > 0 ORDER BY f.s DESC, f.seen LIMIT k;
  ELSIF want_vector THEN
    RETURN QUERY SELECT t.ord::integer, t.unit, t.score, NULL::integer, NULL::double precision, t.ord::integer, t.score
      FROM raglab.vector_search(p_kind, p_query, fetch_n) WITH ORDINALITY AS t(unit, score, ord) LIMIT k;
  ELSE
    RETURN QUERY SELECT t.ord::integer, t.unit, t.score, t.ord::integer, t.score, NULL::integer, NULL::double precision
      FROM raglab.bm25_search(p_kind, p_terms, fetch_n) WITH ORDINALITY AS t(unit, score, ord) LIMIT k;
  END IF;
END $$;

-- Sorts indices (1-based into p_scores) by score, best first; equal scores keep their order.
CREATE OR REPLACE FUNCTION raglab.by_score(p_idx integer[], p_scores double precision[]) RETURNS integer[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg(x ORDER BY p_scores[x] DESC, o), '{}') FROM unnest(p_idx) WITH ORDINALITY AS u(x, o)
$$;

-- A strategy's blocks for one question: the exported configuration (or p_params' overrides),
-- the question's analysed terms and its normalised vector (NULL for BM25 only).
CREATE OR REPLACE FUNCTION raglab.search(p_strategy text, p_terms text[], p_query vector, p_params jsonb DEFAULT NULL)
RETURNS TABLE (rank integer, block_id text, doc integer, sent_start integer, sent_end integer, char_start integer, char_end integer,
               score double precision, tokens integer, hits integer[], header text, block_text text)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  p jsonb := raglab.params(p_params);
  budget double precision := (p ->> 'budgetTokens')::double precision;
  kind text := CASE p_strategy WHEN 'naive' THEN 'chunk' WHEN 'automerge' THEN 'leaf' WHEN 'sentence' THEN 'sentence' WHEN 'window' THEN 'sentence' END;
  c_unit integer[]; c_score double precision[];
  -- blocks: sentence range, score, cost, hit sentences (as text lists: arrays cannot be ragged)
  o_start integer[] := '{}'; o_end integer[] := '{}'; o_score double precision[] := '{}'; o_cost double precision[] := '{}'; o_hits text[] := '{}';
  o_cs integer[] := '{}'; o_ce integer[] := '{}';
  used double precision := 0;
  cost double precision;
  i integer; j integer; n integer;
  r record;
BEGIN
  IF kind IS NULL THEN RAISE EXCEPTION 'raglab.search: strategy % is not reproduced in SQL (naive, sentence, window, automerge are)', p_strategy; END IF;
  SELECT coalesce(array_agg(x.unit ORDER BY x.rank), '{}'), coalesce(array_agg(x.score ORDER BY x.rank), '{}')
    INTO c_unit, c_score FROM raglab.candidates(kind, p_terms, p_query, p_params) x;
  n := coalesce(array_length(c_unit, 1), 0);

  IF p_strategy IN ('sentence', 'naive') THEN
    -- Each unit is a block; a unit that does not fit what is left of the budget is skipped.
    FOR i IN 1 .. n LOOP
      IF kind = 'sentence' THEN
        cost := raglab.block_cost(c_unit[i], c_unit[i] + 1);
        SELECT c_unit[i] AS sent_start, c_unit[i] + 1 AS sent_end, s.char_start, s.char_end INTO r FROM raglab.sentences s WHERE s.sentence = c_unit[i];
      ELSE
        SELECT u.sent_start, u.sent_end, u.char_start, u.char_end, u.tokens + (raglab.header_of(u.sent_start, u.sent_end)).tokens AS t
          INTO r FROM raglab.units u WHERE u.kind = 'chunk' AND u.id = c_unit[i];
        cost := r.t;
      END IF;
      CONTINUE WHEN budget IS NOT NULL AND used + cost > budget;
      used := used + cost;
      o_start := o_start || r.sent_start; o_end := o_end || r.sent_end; o_score := o_score || c_score[i]; o_cost := o_cost || cost;
      o_cs := o_cs || r.char_start; o_ce := o_ce || r.char_end;
      o_hits := o_hits || CASE WHEN kind = 'sentence' THEN c_unit[i]::text ELSE '' END;
    END LOOP;

  ELSIF p_strategy = 'window' THEN
    DECLARE
      w_before integer := (p #>> '{window,before}')::integer;
      w_after integer := (p #>> '{window,after}')::integer;
      by_section boolean := (p #>> '{window,bySection}')::boolean;
      hit integer; hs double precision; lo integer; hi integer; maxb integer; maxa integer; bb integer; aa integer;
      s0 integer; e0 integer; merged integer[]; new_cost double precision; delta double precision; keep integer; best double precision; hl text;
    BEGIN
      FOR i IN 1 .. n LOOP
        hit := c_unit[i]; hs := c_score[i];
        IF by_section THEN
          SELECT s.bound_start, s.bound_end INTO lo, hi FROM raglab.sentences s WHERE s.sentence = hit;
        ELSE
          SELECT d.sent_start, d.sent_end INTO lo, hi FROM raglab.sentences s JOIN raglab.documents d ON d.doc = s.doc WHERE s.sentence = hit;
        END IF;
        maxb := least(w_before, hit - lo); maxa := least(w_after, hi - 1 - hit);
        bb := maxb; aa := maxa;
        LOOP
          s0 := greatest(lo, hit - bb); e0 := least(hi, hit + aa + 1);
          -- every block it overlaps or touches inside the same bound merges with it
          merged := '{}';
          FOR j IN 1 .. coalesce(array_length(o_start, 1), 0) LOOP
            IF o_start[j] <= e0 AND s0 <= o_end[j] AND o_start[j] >= lo AND o_end[j] <= hi THEN merged := merged || j; END IF;
          END LOOP;
          delta := 0;
          FOREACH j IN ARRAY merged LOOP s0 := least(s0, o_start[j]); e0 := greatest(e0, o_end[j]); END LOOP;
          new_cost := raglab.block_cost(s0, e0);
          delta := 0;
          FOREACH j IN ARRAY merged LOOP delta := delta + o_cost[j]; END LOOP;
          delta := new_cost - delta;
          IF budget IS NULL OR used + delta <= budget THEN
            used := used + delta;
            IF coalesce(array_length(merged, 1), 0) = 0 THEN
              o_start := o_start || s0; o_end := o_end || e0; o_score := o_score || hs; o_cost := o_cost || new_cost; o_hits := o_hits || hit::text;
            ELSE
              keep := merged[1];
              best := hs; hl := '';
              FOREACH j IN ARRAY merged LOOP
                best := greatest(best, o_score[j]);
                hl := hl || o_hits[j] || ',';
              END LOOP;
              o_start[keep] := s0; o_end[keep] := e0; o_cost[keep] := new_cost; o_score[keep] := best; o_hits[keep] := hl || hit::text;
              -- the earliest block keeps its place; the others are removed
              IF array_length(merged, 1) > 1 THEN
                SELECT array_agg(o_start[x] ORDER BY x), array_agg(o_end[x] ORDER BY x), array_agg(o_score[x] ORDER BY x), array_agg(o_cost[x] ORDER BY x), array_agg(o_hits[x] ORDER BY x)
                  INTO o_start, o_end, o_score, o_cost, o_hits
                  FROM generate_series(1, array_length(o_start, 1)) AS x WHERE NOT (x = ANY (merged[2:]));
              END IF;
            END IF;
            EXIT;
          END IF;
          EXIT WHEN bb = 0 AND aa = 0;
          -- shrink around the hit, from the larger side first
          IF bb >= aa AND bb > 0 THEN bb := bb - 1; ELSE aa := aa - 1; END IF;
        END LOOP;
      END LOOP;
      o_cs := '{}'; o_ce := '{}';
      FOR j IN 1 .. coalesce(array_length(o_start, 1), 0) LOOP
        o_cs := o_cs || (SELECT s.char_start FROM raglab.sentences s WHERE s.sentence = o_start[j]);
        o_ce := o_ce || (SELECT s.char_end FROM raglab.sentences s WHERE s.sentence = o_end[j] - 1);
      END LOOP;
    END;

  ELSIF p_strategy = 'automerge' THEN
    DECLARE
      threshold double precision := (p #>> '{merge,threshold}')::double precision;
      l_node integer[] := '{}'; l_score double precision[] := '{}';   -- the leaf pool (node ids, scores)
      cur_node integer[]; cur_score double precision[]; cur_leaves text[]; cur_merged boolean[];
      nx_node integer[]; nx_score double precision[]; nx_leaves text[]; nx_merged boolean[];
      parents integer[]; kids integer[]; par integer; all_children integer; total double precision; leaves integer[];
      changed boolean; keep_idx integer[]; order_idx integer[]; lf integer;
    BEGIN
      -- With a budget, merging decides among the leaves the budget would hold.
      FOR i IN 1 .. n LOOP
        SELECT u.node, u.sent_start, u.sent_end INTO r FROM raglab.units u WHERE u.kind = 'leaf' AND u.id = c_unit[i];
        IF budget IS NOT NULL THEN
          cost := raglab.block_cost(r.sent_start, r.sent_end);
          CONTINUE WHEN used + cost > budget;
          used := used + cost;
        END IF;
        l_node := l_node || r.node; l_score := l_score || c_score[i];
      END LOOP;
      used := 0;
      cur_node := '{}'; cur_score := '{}'; cur_leaves := '{}'; cur_merged := '{}';
      FOR i IN 1 .. coalesce(array_length(l_node, 1), 0) LOOP
        CONTINUE WHEN l_node[i] = ANY (cur_node);
        cur_node := cur_node || l_node[i]; cur_score := cur_score || l_score[i]; cur_leaves := cur_leaves || i::text; cur_merged := cur_merged || false;
      END LOOP;
      LOOP
        changed := false;
        -- parents in order of their first child in the current set
        parents := '{}';
        FOR i IN 1 .. coalesce(array_length(cur_node, 1), 0) LOOP
          SELECT u.parent INTO par FROM raglab.units u WHERE u.node = cur_node[i];
          IF par IS NOT NULL AND NOT (par = ANY (parents)) THEN parents := parents || par; END IF;
        END LOOP;
        nx_node := cur_node; nx_score := cur_score; nx_leaves := cur_leaves; nx_merged := cur_merged;
        FOREACH par IN ARRAY parents LOOP
          kids := '{}';
          FOR i IN 1 .. coalesce(array_length(cur_node, 1), 0) LOOP
            IF (SELECT u.parent FROM raglab.units u WHERE u.node = cur_node[i]) = par THEN kids := kids || i; END IF;
          END LOOP;
          SELECT u.children INTO all_children FROM raglab.units u WHERE u.kind = 'parent' AND u.id = par;
          IF array_length(kids, 1)::double precision / all_children > threshold THEN
            total := 0; leaves := '{}';
            FOREACH j IN ARRAY kids LOOP
              total := total + cur_score[j];
              leaves := leaves || string_to_array(cur_leaves[j], ',')::integer[];
            END LOOP;
            leaves := raglab.by_score(leaves, l_score);
            SELECT coalesce(array_agg(x ORDER BY x), '{}') INTO keep_idx FROM generate_series(1, coalesce(array_length(nx_node, 1), 0)) AS x
             WHERE NOT (nx_node[x] = ANY (SELECT cur_node[k] FROM unnest(kids) AS k));
            SELECT coalesce(array_agg(nx_node[x] ORDER BY o), '{}'), coalesce(array_agg(nx_score[x] ORDER BY o), '{}'),
                   coalesce(array_agg(nx_leaves[x] ORDER BY o), '{}'), coalesce(array_agg(nx_merged[x] ORDER BY o), '{}')
              INTO nx_node, nx_score, nx_leaves, nx_merged FROM unnest(keep_idx) WITH ORDINALITY AS t(x, o);
            nx_node := nx_node || par; nx_score := nx_score || (total / array_length(kids, 1));
            nx_leaves := nx_leaves || array_to_string(leaves, ','); nx_merged := nx_merged || true;
            changed := true;
          END IF;
        END LOOP;
        cur_node := nx_node; cur_score := nx_score; cur_leaves := nx_leaves; cur_merged := nx_merged;
        EXIT WHEN NOT changed;
      END LOOP;
      order_idx := raglab.by_score(ARRAY(SELECT generate_series(1, coalesce(array_length(cur_node, 1), 0))), cur_score);
      -- Fit the budget in score order; a parent that does not fit falls back to its leaves.
      FOREACH i IN ARRAY order_idx LOOP
        SELECT u.sent_start, u.sent_end INTO r FROM raglab.units u WHERE u.node = cur_node[i];
        cost := raglab.block_cost(r.sent_start, r.sent_end);
        IF budget IS NULL OR used + cost <= budget THEN
          used := used + cost;
          o_start := o_start || r.sent_start; o_end := o_end || r.sent_end; o_score := o_score || cur_score[i]; o_cost := o_cost || cost; o_hits := o_hits || cur_leaves[i];
        ELSIF cur_merged[i] THEN
          FOREACH lf IN ARRAY string_to_array(cur_leaves[i], ',')::integer[] LOOP
            SELECT u.sent_start, u.sent_end INTO r FROM raglab.units u WHERE u.node = l_node[lf];
            cost := raglab.block_cost(r.sent_start, r.sent_end);
            CONTINUE WHEN used + cost > budget;
            used := used + cost;
            o_start := o_start || r.sent_start; o_end := o_end || r.sent_end; o_score := o_score || l_score[lf]; o_cost := o_cost || cost; o_hits := o_hits || lf::text;
          END LOOP;
        END IF;
      END LOOP;
      -- hits: the sentences of the merged leaves, best leaf first
      FOR j IN 1 .. coalesce(array_length(o_start, 1), 0) LOOP
        o_cs := o_cs || (SELECT s.char_start FROM raglab.sentences s WHERE s.sentence = o_start[j]);
        o_ce := o_ce || (SELECT s.char_end FROM raglab.sentences s WHERE s.sentence = o_end[j] - 1);
        o_hits[j] := (SELECT string_agg(g::text, ',' ORDER BY o, g) FROM unnest(string_to_array(o_hits[j], ',')::integer[]) WITH ORDINALITY AS t(lf, o)
                        JOIN raglab.units u ON u.node = l_node[t.lf] CROSS JOIN LATERAL generate_series(u.sent_start, u.sent_end - 1) AS g);
      END LOOP;
    END;
  END IF;

  FOR j IN 1 .. coalesce(array_length(o_start, 1), 0) LOOP
    rank := j; sent_start := o_start[j]; sent_end := o_end[j]; char_start := o_cs[j]; char_end := o_ce[j];
    score := o_score[j]; tokens := o_cost[j]::integer;
    SELECT s.doc INTO doc FROM raglab.sentences s WHERE s.sentence = o_start[j];
    block_id := CASE WHEN p_strategy = 'naive' THEN format('naive:%s:%s-%s', doc, char_start, char_end) ELSE format('%s:%s:%s-%s', p_strategy, doc, sent_start, sent_end) END;
    hits := CASE WHEN o_hits[j] = '' THEN '{}'::integer[]
                 WHEN p_strategy = 'automerge' THEN string_to_array(o_hits[j], ',')::integer[]
                 ELSE ARRAY(SELECT x FROM unnest(string_to_array(o_hits[j], ',')::integer[]) AS x ORDER BY x) END;
    header := (raglab.header_of(sent_start, sent_end)).header;
    SELECT raglab.utf16_slice(d.text, char_start, char_end) INTO block_text FROM raglab.documents d WHERE d.doc = search.doc;
    RETURN NEXT;
  END LOOP;
END $$;
`;

export function functionsSql(): string {
  return FUNCTIONS_SQL;
}
