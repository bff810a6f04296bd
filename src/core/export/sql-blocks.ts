/**
 * The lab's strategies in SQL: a strategy's blocks for one question from its candidates
 * (windows, auto-merging and the others as range joins over sentence ordinals and parent ids).
 * Joined after sql-ranking.ts by sql.ts.
 */
export const BLOCKS_SQL = String.raw`-- Sorts indices (1-based into p_scores) by score, best first; equal scores keep their order.
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
