/**
 * The user's choice of a document's language, from the document list: the worker splits,
 * analyses and embeds that document alone again (setDocumentLanguage), then the question is
 * asked again. The language names the list shows, in English, from Intl.DisplayNames.
 */
import { DETECTED_LANGUAGES } from '../core/segment/language-tags';
import { worker } from './lab-client';
import { search } from './searches';

export async function setDocumentLanguage(docId: string, language: string): Promise<void> {
  await worker().request('setDocumentLanguage', { docId, language }).promise;
  void search();
}

let names: Intl.DisplayNames | null = null;

/** "Romanian", "Chinese", or the tag itself where the browser has no name for it. */
export function languageName(tag: string): string {
  try {
    names ??= new Intl.DisplayNames(['en'], { type: 'language' });
    return names.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** The languages to choose from: the document's own first, then the detector's other candidates, then every language it names, by name. */
export function languageChoices(current: string, alternatives: readonly string[] = []): { tag: string; label: string }[] {
  const first = [current, ...alternatives.filter((a) => a !== current)];
  const rest = DETECTED_LANGUAGES.filter((l) => !first.includes(l)).sort((a, b) => languageName(a).localeCompare(languageName(b)));
  return [...first, ...rest].map((tag, i) => ({ tag, label: `${languageName(tag)} (${tag})${i > 0 && i < first.length ? ' — also likely' : ''}` }));
}
