/** The help text of `rag-lab --help` (the question-set commands add theirs: QUESTIONS_HELP). */
import { RANKING_METRICS } from '../core/eval/metrics';
import { ANALYZERS } from '../core/index/lexical-params';
import { RETRIEVERS } from '../core/retrieve/retrievers';
import { PARAM_GROUPS, STRATEGIES, SWEEP_AXES } from '../core/strategies/registry';
import { DEFAULT_PACKED } from '../core/structure/packed-chunks';
import { DEFAULT_SEMANTIC } from '../core/structure/semantic-chunks';
import { ANSWER_RANKING_METRICS } from '../core/answers/metric-names';
import { ANSWER_HELP, CONTEXTUAL_HELP, EMBEDDER_HELP, LATE_HELP, TRANSFORM_HELP } from './option-tables';

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

export const HELP = `rag-lab — RAG Context Lab on the command line

Commands
  index <files…> --out corpus.json   load files (pdf, docx, pptx, xlsx, csv, epub, images… see docs/formats.md), split, embed, save
  query "question" <files…>          show what each strategy hands over
  query "question" --corpus F        the same over a saved corpus
  eval --data PATH                   metrics per strategy and retriever on a labelled set
                                     (SQuAD-format .json, or a BEIR folder)
  export --out DIR (<files…>|--corpus F|--data PATH|--from DIR) [--strategy S] [--question Q]…
                                     a bundle: manifest, Parquet + JSONL tables, PostgreSQL +
                                     pgvector SQL, golden run, framework code (one column's
                                     configuration: --strategy, --retriever, retrieval options)
  verify DIR|ZIP [--engine pglite] [--json]
                                     load the bundle's SQL into PGlite and compare every
                                     golden question with the lab (exit 1 on a difference)
  index --from DIR|ZIP --out corpus.json
                                     a saved corpus from a bundle (folder or .zip), without re-embedding

Options
  --strategies a,b      ${STRATEGIES.join(',')} (default: all)
  --retriever r[,r]     ${RETRIEVERS.join(' | ')} (eval default: all three; query: hybrid);
                        bm25 alone loads no embedding model (index: saves no vectors)
  --budget TOKENS|none  context token budget (eval default 512; none = top-k blocks)
${EMBEDDER_HELP}
  --models-dir DIR      folder with <org>/<model>/ (default public/models)
  --remote              allow downloading models from the Hugging Face hub
  --limit-docs N        eval: use the first N documents / articles
  --limit-questions N   eval: use the first N questions (unanswerable ones, for --answers, in their share)
  --top-k K             units retrieved before expansion (default 10; eval 50)
${PARAM_GROUPS.flatMap((g) => g.cli?.help ?? []).join('\n')}
  --rrf-c C             RRF constant (default 60)  --weights W_BM25,W_VECTOR (default 0.5,0.5)
  --levels L1,L2,L3     chunk levels in tokens (default 2048,512,128)
  --chunk-size N        naive chunk size in tokens (default 128)
  --packed-size N       sentence-packed chunks (LlamaIndex SentenceSplitter): size in tokens (default ${DEFAULT_PACKED.size})
  --packed-overlap N    tokens of whole sentences carried into the next packed chunk (default ${DEFAULT_PACKED.overlap})
  --semantic-buffer N   semantic chunks (LlamaIndex SemanticSplitterNodeParser): neighbours embedded
                        with each sentence on each side (default ${DEFAULT_SEMANTIC.buffer}); needs an embedding model
  --semantic-percentile P
                        break where the neighbour distance exceeds this percentile (default ${DEFAULT_SEMANTIC.percentile})
  --headers             contextual chunk headers on
${LATE_HELP}${CONTEXTUAL_HELP}  --analyzer A[,A…]     BM25 terms: ${ANALYZERS.join(' | ')} (default stem+stop; stem: Snowball
                        per language, Porter for English; +stop drops stop words)
  --bm25 V[,V…]         BM25 variant: bm25plus (MiniSearch's BM25+) | lucene
                        (Lucene/Anserini: k1 0.9, b 0.4, length in tokens; default); eval measures each
  --split S             BEIR qrels split (default test)
  --language L          language of the dataset's documents (default: detected)
  --json                eval: print one JSON object instead of a table
  --debug               on an error, print the stack trace after the error: line
  --sweep               eval: sweep ${SWEEP_AXES.map((a) => lowerFirst(a.label)).join(', ')}, RRF c × weights
                        at each budget (--budget 256,512 by default) and recommend the best
  --sweep-headers       with --sweep: also with contextual headers on (embeds a second variant)
  --reranker R          test | none | <model id>: with --sweep, also measure rerank on
  --metric M            what "best" means: ${RANKING_METRICS[0]} (default), ${RANKING_METRICS.slice(1).join(', ')};
                        with --answers also ${ANSWER_RANKING_METRICS.join(', ')} (recommends by the answers)
${ANSWER_HELP}${TRANSFORM_HELP}`;
