import type { ContextualManifest } from './manifest';

/**
 * Comment lines for the generated framework code when the exported configuration uses
 * contextual retrieval: how the contexts were made, where they are, and what the other stack
 * must do with them (none of the three frameworks writes them by itself).
 */
export function contextualNotes(c: ContextualManifest | undefined): string[] {
  if (!c) return [];
  const kinds = Object.entries(c.contexts)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  const sources = Object.entries(c.sources)
    .map(([s, n]) => `${s} (${n})`)
    .join('; ');
  return [
    `Contextual retrieval (Anthropic, 2024) is on: ${kinds} units carry a situating context, written by ${sources}.`,
    `They are in ${c.file}, keyed by document id, unit kind and character range. The prompt's user template (first line):`,
    `  ${c.prompt.split('\n')[0]}`,
    'Index and embed each unit as the lab did: header (if on) + blank line + context + blank line + text;',
    'a unit without a context as its plain text. New documents need new contexts, from the same prompt and model.',
  ];
}
