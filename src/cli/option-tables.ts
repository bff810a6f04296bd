/**
 * Every option the command line takes beyond options.ts's own, with its help text: the question
 * sets', the embedder's, late chunking's, contextual retrieval's, answer runs' and query
 * transformations'. One light module (no model, stemmer or parser is imported), so parsing the
 * arguments and printing --help start at once; each command's module reads its values.
 */
import { BLOCK_ORDERS } from '../core/answers/block-order';
import { DEFAULT_ANSWER_TOKENS } from '../core/answers/prompt';
import { EMBEDDING_PRESETS } from '../core/embed/presets';
import { DEFAULT_ENDPOINT_CONTEXT_TOKENS, TEST_GENERATOR_ID } from '../core/generate/generator-models';
import { SET_FORMATS } from '../core/questions/formats/set-formats';
import { DEFAULT_PASSAGE_TOKENS } from '../core/questions/sample';
import { DEFAULT_VARIANTS, QUERY_TRANSFORMS } from '../core/transform/rewrites';
import { defaultReplyCacheDir } from '../node/cache-dir';

/** The options these commands add to main.ts's parseArgs table. */
export const QUESTION_OPTIONS = {
  questions: { type: 'string' },
  endpoint: { type: 'string' },
  model: { type: 'string' },
  n: { type: 'string' },
  seed: { type: 'string' },
  kinds: { type: 'string' },
  documents: { type: 'string' },
  'api-key-env': { type: 'string' },
  'passage-tokens': { type: 'string' },
  'fuzzy-threshold': { type: 'string' },
  'duplicate-threshold': { type: 'string' },
  'copy-threshold': { type: 'string' },
  'no-structured': { type: 'boolean' },
  to: { type: 'string' },
  only: { type: 'string' },
} as const;

export interface QuestionValues {
  out?: string;
  data?: string;
  corpus?: string;
  json?: boolean;
  questions?: string;
  endpoint?: string;
  model?: string;
  n?: string;
  seed?: string;
  kinds?: string;
  documents?: string;
  'api-key-env'?: string;
  'passage-tokens'?: string;
  'fuzzy-threshold'?: string;
  'duplicate-threshold'?: string;
  'copy-threshold'?: string;
  'no-structured'?: boolean;
  to?: string;
  only?: string;
}

export const QUESTIONS_HELP = `
Question sets (docs/questions-cli.md)
  questions generate <files…|--corpus F> --endpoint URL --model NAME --out set.jsonl
                     [--n 50] [--seed 1] [--kinds specific,abstract,multi-passage]
                     [--documents ID|NAME,…] [--passage-tokens ${DEFAULT_PASSAGE_TOKENS}] [--api-key-env VAR]
                     [--fuzzy-threshold 0.8] [--duplicate-threshold 0.7] [--copy-threshold 0.8] [--no-structured]
                     a labelled set written by a model at an OpenAI-compatible endpoint;
                     rejected questions go to set.rejected.jsonl
  questions convert SET <files…|--corpus F> --to ${SET_FORMATS.join('|')} --out PATH
  eval --questions SET <files…|--corpus F> [--only marked|generated|imported]
                     the eval table (and --json) on a question set, with where its questions came from
  query … --json     each strategy's blocks as one JSON object (text, scores, spans, provenance)
`;

export const EMBEDDER_OPTIONS = {
  'embedding-endpoint': { type: 'string' },
  'embedding-key-env': { type: 'string' },
  'embedding-dimensions': { type: 'string' },
} as const;

export interface EmbedderValues {
  embedder?: string;
  remote?: boolean;
  'embedding-endpoint'?: string;
  'embedding-key-env'?: string;
  'embedding-dimensions'?: string;
}

export const EMBEDDER_HELP = `  --embedder E          test (generated test model, default) | test-static (generated Model2Vec-shaped
                        test model) | none | a preset: ${EMBEDDING_PRESETS.map((p) => p.name).join(', ')}
                        | any Hugging Face id with ONNX weights (its settings guessed and printed)
  --embedding-endpoint URL
                        embed with an OpenAI-compatible /v1/embeddings endpoint (Ollama, LM Studio,
                        vLLM, TEI, OpenAI…); --embedder names its model. Every unit's text goes there
  --embedding-key-env NAME
                        read the endpoint's key from this environment variable
  --embedding-dimensions N
                        Matryoshka size of a preset, or \`dimensions\` sent to the endpoint`;

export const LATE_OPTIONS = {
  'late-chunking': { type: 'boolean' },
} as const;

export interface LateValues {
  'late-chunking'?: boolean;
}

export const LATE_HELP = `  --late-chunking       late chunking: each unit's vector is the mean of its own token vectors, read
                        in spans of up to 2,048 tokens of its document (index, query, export use it;
                        eval and eval --sweep measure plain and late side by side); not for static
                        models or endpoints
`;

export const CONTEXTUAL_OPTIONS = {
  contextual: { type: 'boolean' },
  'context-tokens': { type: 'string' },
  'sweep-contextual': { type: 'boolean' },
} as const;

export interface ContextualValues {
  contextual?: boolean;
  'context-tokens'?: string;
  'context-unit'?: string | boolean | string[];
  'sweep-contextual'?: boolean;
  endpoint?: string;
  model?: string;
  'api-key-env'?: string;
}

export const CONTEXTUAL_HELP = `  --contextual          contextual retrieval (index, query, eval, export): a model writes each unit's
                        situating context (Anthropic's prompt), prepended for BM25 and the vectors;
                        the generator: --endpoint URL --model NAME [--api-key-env VAR], or
                        --model ${TEST_GENERATOR_ID} (the TEST model, run here); units that have one
                        (a saved corpus's) are not sent again. --context-unit K: the units (default chunk)
  --context-tokens N    the endpoint model's context window (default ${DEFAULT_ENDPOINT_CONTEXT_TOKENS}); longer documents are cut
  --sweep-contextual    with --sweep: contextual retrieval off, then on (writes the contexts first)
`;

export const ANSWER_OPTIONS = {
  answers: { type: 'boolean' },
  'answer-prompt': { type: 'string' },
  'answer-tokens': { type: 'string' },
  'answers-out': { type: 'string' },
  cache: { type: 'string' },
  order: { type: 'string' },
  concurrency: { type: 'string' },
  judge: { type: 'boolean' },
  'judge-endpoint': { type: 'string' },
  'judge-model': { type: 'string' },
  'judge-api-key-env': { type: 'string' },
  'judge-prompts': { type: 'string' },
} as const;

export interface AnswerValues {
  answers?: boolean;
  'answer-prompt'?: string;
  'answer-tokens'?: string;
  'answers-out'?: string;
  cache?: string;
  order?: string;
  concurrency?: string;
  judge?: boolean;
  'judge-endpoint'?: string;
  'judge-model'?: string;
  'judge-api-key-env'?: string;
  'judge-prompts'?: string;
  endpoint?: string;
  model?: string;
  'api-key-env'?: string;
  'context-tokens'?: string;
}

export const ANSWER_HELP = `  --answers             eval: also answer every point's context with a model and score the answers
                        (exact match, F1, correct abstentions, prompt tokens, time); the generator:
                        --endpoint URL --model NAME [--api-key-env VAR], or --model test (the TEST model)
  --answer-prompt FILE  the answer instructions (default: a short answer citing its source)
  --answer-tokens N     longest answer in tokens (default ${DEFAULT_ANSWER_TOKENS})
  --answers-out FILE    one JSON line per question and point: context, answer, references, scores
  --cache DIR|none      where replies are kept, so a repeated command sends nothing
                        (default ${defaultReplyCacheDir().replace(process.env.HOME ?? '\u0000', '~')}; none: this run only)
  --order O[,O…]        block order in the prompt: ${BLOCK_ORDERS.join(' | ')} (edges: best at both ends);
                        each is a measured point (default score)
  --concurrency N       endpoint calls in flight (default 4)
  --judge               a model grades each answer against the references and the share of its
                        statements the context supports (faithfulness); by default the answer model,
                        or --judge-endpoint URL --judge-model NAME [--judge-api-key-env VAR];
                        --judge-prompts FILE: JSON with "correct", "statements", "verdicts" prompts
`;

export const TRANSFORM_OPTIONS = {
  'query-transform': { type: 'string' },
  tools: { type: 'string' },
  variants: { type: 'string' },
} as const;

export interface TransformValues {
  'query-transform'?: string;
  tools?: string;
  variants?: string;
  endpoint?: string;
  model?: string;
  'api-key-env'?: string;
  'context-tokens'?: string;
  cache?: string;
}

export const TRANSFORM_HELP = `  --query-transform T[,T…]
                        eval, query: ${QUERY_TRANSFORMS.join(' | ')} — each a measured dimension
                        (multiquery: variants fused by RRF; subquestions: sub-questions each sent to
                        a tool; hyde: a hypothetical answer searched beside the question; router: one
                        tool for the question); the generator: --endpoint URL --model NAME, or --model test
  --tools S[,S…]        the tools sub-questions and the router choose from: default (BM25 and vector),
                        documents (those and one per document), or a JSON file [{name, retriever,
                        description, document?}]; several sets are compared by routing precision
  --variants N          multiquery: variants the generator writes (default ${DEFAULT_VARIANTS})
`;
