/**
 * Language tags where they enter (`--language`, `<html lang>`, datasets, bundles):
 * canonical BCP 47 or nothing. `en_US` (POSIX style) becomes `en-US`; a tag that is not
 * well-formed is null, and the caller ignores it with a note: Intl.Segmenter throws a
 * RangeError for it, which aborted whole runs.
 */
export function canonicalLanguage(tag: unknown): string | null {
  if (typeof tag !== 'string') return null;
  const t = tag.trim().replace(/_/g, '-');
  if (!t) return null;
  try {
    return Intl.getCanonicalLocales(t)[0] ?? null;
  } catch {
    return null;
  }
}

/** The note a document carries when its language tag was ignored. */
export function ignoredLanguageNote(tag: string): string {
  return `language tag "${tag.slice(0, 40)}" is not a valid BCP 47 tag: ignored, the language was detected from the text`;
}
