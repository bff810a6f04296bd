/**
 * The lab's ranking in SQL: parameters, headers and block costs, BM25 (both variants), exact
 * vector top-k and the fused candidates — each mirroring one step of src/core/retrieve and
 * src/core/index with its float steps and tie order. Joined with sql-blocks.ts by sql.ts.
 */
export const RANKING_SQL = String.raw`-- RAG Context Lab bundle: retrieval functions (PL/pgSQL + pgvector).
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

`;
