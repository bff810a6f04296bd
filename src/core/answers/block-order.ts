/**
 * The order a context's blocks are handed to the model in: a context parameter that changes
 * only answers (retrieval metrics judge the ranking, whatever order the prompt lists it in).
 *   score     best first, as retrieved (the lab's default)
 *   document  in reading order: by document, then by position in it
 *   edges     the best blocks at both ends, the weakest in the middle — LangChain's and
 *             LlamaIndex's LongContextReorder, against "Lost in the Middle" (Liu et al., 2023):
 *             models use what is first or last in a long context best.
 */
export const BLOCK_ORDERS = ['score', 'document', 'edges'] as const;
export type BlockOrder = (typeof BLOCK_ORDERS)[number];

export const BLOCK_ORDER_WORDS: Record<BlockOrder, string> = {
  score: 'best first',
  document: 'reading order',
  edges: 'best at both ends',
};

/** What reading order needs of a block: its document (index or id) and where it starts. */
export interface Positioned {
  doc: number | string;
  start: number;
}

/**
 * LongContextReorder as LangChain writes it: walk the blocks from the weakest to the best and
 * put every other one at the front, the rest at the back. Best-first [1,2,3,4,5] becomes
 * [1,3,5,4,2]: the best first, the second best last.
 */
export function edgesOrder<T>(bestFirst: readonly T[]): T[] {
  const out: T[] = [];
  [...bestFirst].reverse().forEach((b, i) => {
    if (i % 2 === 1) out.push(b);
    else out.unshift(b);
  });
  return out;
}

/** The blocks (best first, as retrieved) in `order`. Reading order keeps the documents in their first block's rank when ids are not numbers. */
export function orderBlocks<T extends Positioned>(bestFirst: readonly T[], order: BlockOrder): T[] {
  if (order === 'score') return [...bestFirst];
  if (order === 'edges') return edgesOrder(bestFirst);
  const docRank = new Map<number | string, number>();
  bestFirst.forEach((b, i) => {
    if (!docRank.has(b.doc)) docRank.set(b.doc, i);
  });
  const docKey = (b: T) => (typeof b.doc === 'number' ? b.doc : docRank.get(b.doc)!);
  return [...bestFirst].sort((a, b) => docKey(a) - docKey(b) || a.start - b.start);
}

/** Reads "score,document" (CLI, URL): a list of orders, or the unknown word. */
export function parseBlockOrders(text: string): { orders: BlockOrder[] } | { unknown: string } {
  const items = text.split(',').map((s) => s.trim()).filter(Boolean);
  for (const i of items) if (!(BLOCK_ORDERS as readonly string[]).includes(i)) return { unknown: i };
  return { orders: [...new Set(items)] as BlockOrder[] };
}
