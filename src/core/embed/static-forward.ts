/**
 * One forward pass of a Model2Vec static model, as its README's JavaScript example runs it:
 * token ids without special tokens, flattened into one `input_ids` vector, and `offsets`
 * saying where each text starts; the graph averages each text's token vectors (`embeddings`).
 * Each text's ids are cut to `maxTokens` (Model2Vec's own encode truncates at 512).
 */
import { Tensor, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';

export async function staticForward(tokenizer: PreTrainedTokenizer, net: PreTrainedModel, batch: string[], maxTokens: number): Promise<{ rows: Float32Array; dim: number; tokens: number[] }> {
  const { input_ids } = tokenizer(batch, { add_special_tokens: false, return_tensor: false } as never) as unknown as { input_ids: number[][] };
  const offsets: number[] = [];
  let total = 0;
  for (const ids of input_ids) {
    offsets.push(total);
    total += Math.min(ids.length, maxTokens);
  }
  const flat = new BigInt64Array(total);
  let k = 0;
  for (const ids of input_ids) for (let j = 0; j < Math.min(ids.length, maxTokens); j++) flat[k++] = BigInt(ids[j]!);
  const out = (await (net as unknown as (x: Record<string, Tensor>) => Promise<Record<string, Tensor>>)({
    input_ids: new Tensor('int64', flat, [total]),
    offsets: new Tensor('int64', BigInt64Array.from(offsets, (x) => BigInt(x)), [offsets.length]),
  })) as Record<string, Tensor>;
  const e = out.embeddings ?? Object.values(out)[0];
  if (!e) throw new Error('the static model returned no embeddings');
  const t = e.type === 'float32' ? e : e.to('float32');
  // Each text's full token count: the caller reports truncation without tokenizing again.
  return { rows: t.data as Float32Array, dim: t.dims.at(-1)!, tokens: input_ids.map((ids) => ids.length) };
}
