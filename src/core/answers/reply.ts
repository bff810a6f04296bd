/**
 * A generated answer as it is scored: the model's reasoning block (<think>…</think>), the
 * citation marks the answer prompt asks for ([1], [2][3], [1, 4]) and a leading "Answer:" label
 * are not part of the answer. And whether the answer is an abstention — the model saying the
 * sources do not answer — with the question sets' don't-know detector plus the ways an answer
 * prompt's own wording comes back ("I cannot answer from the sources").
 */
import { isDontKnow } from '../questions/filters';
import { dropThinking } from '../util/model-reply';

const CITATIONS = /\s*\[\s*\d+(?:\s*[,;–-]\s*\d+)*\s*\]/gu;
const LABEL = /^\s*(?:\*\*)?(?:final\s+answer|answer|a|resposta|respuesta|réponse|antwort|答案|答)(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*/iu;

/** The answer without reasoning, citation marks, a label and surrounding space. */
export function cleanAnswer(reply: string): string {
  return dropThinking(reply).replace(CITATIONS, '').replace(LABEL, '').replace(/\s+/gu, ' ').trim();
}

/** Refusals an answer prompt provokes that the question sets' detector does not need (it reads question replies). */
const ANSWER_REFUSALS = [
  /\b(?:i|we) (?:cannot|can'?t|could not|couldn'?t|am unable to|are unable to|am not able to) (?:answer|determine|find)\b/iu,
  /\b(?:the )?(?:sources?|context|documents?|passages?|texts?) (?:do|does|did) not (?:contain|say|mention|state|provide|include|answer|give)\b/iu,
  /\b(?:no|not enough) (?:information|relevant information|answer) (?:is )?(?:in|about|on|provided|given|available)\b/iu,
  /\bnot (?:enough|sufficient) information\b/iu,
  /\bnão (?:posso|é possível) responder\b|\bas fontes não\b/iu,
  /\bno (?:puedo|es posible) responder\b|\blas fuentes no\b/iu,
  /\bkann (?:ich )?(?:die frage )?nicht beantworten\b|\bdie quellen (?:enthalten|nennen) (?:keine|nicht)\b/iu,
  /\bje ne peux pas répondre\b|\bles sources ne\b/iu,
  /无法(?:回答|确定|找到)|没有(?:相关)?信息|資料中沒有|无法从/u,
];

/** True when the answer says it cannot answer from the sources (an empty answer is not an abstention: it failed). */
export function isAbstention(answer: string): boolean {
  const a = cleanAnswer(answer);
  if (!a) return false;
  return isDontKnow(a) || ANSWER_REFUSALS.some((re) => re.test(a));
}
