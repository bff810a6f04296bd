/** rag-lab query "question" <files…|--corpus F> [--json]: each strategy's blocks as a readable table. */
import type { RetrievalEngine } from '../../core/engine';
import { unitKinds } from '../../core/eval/run-eval';
import { lexicalLabel } from '../../core/index/lexical-index';
import { RETRIEVERS } from '../../core/retrieve/retrievers';
import { STRATEGIES, strategyTitle } from '../../core/strategies/registry';
import { sectionPath } from '../../core/structure/corpus';
import { applyContextual } from '../contextual-cli';
import { embedAll, loadFiles, makeEngine } from '../engine-setup';
import { applyLateChunking } from '../late-chunking-cli';
import { list, retrieval, type Values } from '../options';
import { queryJson } from '../questions-commands';
import { engineFromSaved } from '../saved-corpus';
import { renderTable } from '../table';
import { visible } from '../terminal';
import { UsageError } from '../usage';

export async function cmdQuery(values: Values, positionals: string[]): Promise<void> {
  const [question, ...files] = positionals;
  if (!question?.trim()) throw new UsageError('query: give the question as the first argument');
  const strategies = list(values.strategies, STRATEGIES, 'strategies', STRATEGIES);
  const [retriever] = list(values.retriever, RETRIEVERS, 'retriever', ['hybrid']);
  const params = { ...retrieval(values, { topK: 10, budget: null }), retriever: retriever! }; // validated before any work
  let engine: RetrievalEngine;
  if (values.corpus) engine = await engineFromSaved(values, values.corpus);
  else {
    if (!files.length) throw new UsageError('query: give files to search, or --corpus FILE');
    engine = await makeEngine(values);
    const docs = await loadFiles(files);
    if (!docs.length) throw new UsageError('query: no file could be loaded');
    engine.addDocuments(docs);
  }
  applyLateChunking(engine, values);
  await applyContextual(engine, values);
  // Only what is missing is embedded (nothing, for a saved corpus made with the same model).
  if (retriever !== 'bm25') await embedAll(engine, unitKinds(strategies, params));
  const results = await engine.search(question, strategies, params);
  if (values.json) return void process.stdout.write(JSON.stringify(queryJson(engine, question, results)) + '\n');
  for (const r of results) {
    console.log(`\n== ${strategyTitle(r.strategy)} · ${r.retriever} · ${r.blocks.length} blocks · ${r.totalTokens} tokens${r.retriever !== 'vector' ? ` · BM25 scored as ${lexicalLabel(engine.structure.lexical)}` : ''}${r.notes.length ? ` · ${visible(r.notes.join('; '))}` : ''}`);
    const rows = r.blocks.map((b, i) => {
      const doc = engine.corpus.docs[b.doc]!;
      const s = engine.corpus.sentences[b.sentences.start]!;
      const where = [doc.title.slice(0, 30), sectionPath(doc, s.section).slice(-1)[0]?.slice(0, 30), s.page !== undefined ? `p.${s.page}` : ''].filter(Boolean).join(' › ');
      const pr = b.provenance;
      const from = [
        ...Object.entries(pr.ranks).map(([k, v]) => `${k} #${v ?? '–'}`),
        pr.fused !== undefined ? `rrf ${pr.fused.toFixed(4)}` : '',
        pr.merged ? `merged ${pr.merged.children}/${pr.merged.of}` : '',
        pr.window?.shrunk ? 'shrunk' : '',
        pr.hits ? `${pr.hits} hits` : '',
        ...(pr.notes ?? []),
        b.context ? `context: ${b.context.text}` : '',
      ].filter(Boolean).join(' · ');
      return [i + 1, Number(b.score.toFixed(4)), b.tokens, where, from, b.text.replace(/\s+/g, ' ').slice(0, 90)];
    });
    console.log(renderTable(['#', 'score', 'tokens', 'where', 'from', 'text'], rows));
  }
}
