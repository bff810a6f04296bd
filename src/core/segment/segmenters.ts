const cache = new Map<string, Intl.Segmenter>();

/** One Intl.Segmenter per (language, granularity): they are costly to create and reusable. */
export function segmenter(language: string, granularity: 'word' | 'sentence'): Intl.Segmenter {
  const key = `${language}|${granularity}`;
  let s = cache.get(key);
  if (!s) {
    s = new Intl.Segmenter(language, { granularity });
    cache.set(key, s);
  }
  return s;
}
