/**
 * The user's choice of a document's language (the document list's "Language" field). It wins
 * over detection and is kept with the document (languageInfo.source 'user'); the document is
 * then split, analysed and embedded again in that language, alone.
 */
import type { Document } from '../core/types';
import { canonicalLanguage } from '../core/util/language-tag';
import { labError } from './protocol';

/**
 * `doc` in `language`, marked as the user's choice; null when it already is (nothing to do).
 * Throws 'bad-language' for a tag Intl refuses (it would abort every search of the document).
 */
export function withLanguage(doc: Document, language: string): Document | null {
  const tag = canonicalLanguage(language);
  if (!tag) throw labError('bad-language');
  if (tag === doc.language && doc.languageInfo?.source === 'user') return null;
  return { ...doc, language: tag, languageInfo: { source: 'user' } };
}
