import { franc } from 'franc-min';

/** ISO 639-3 (franc) → BCP-47 primary tags for the languages franc-min knows best. */
const ISO3_TO_1: Record<string, string> = {
  eng: 'en', por: 'pt', spa: 'es', deu: 'de', fra: 'fr', ita: 'it', nld: 'nl', cmn: 'zh', jpn: 'ja', kor: 'ko',
  rus: 'ru', ukr: 'uk', pol: 'pl', arb: 'ar', hin: 'hi', tur: 'tr', vie: 'vi', ind: 'id', swe: 'sv', ces: 'cs',
  // Told by script or among few languages of a script: without them Greek, Thai, Indic, Urdu and
  // Persian text fell back to English (and Greek lost its ";" sentence ends, which ICU keeps for el).
  ell: 'el', tha: 'th', ben: 'bn', tel: 'te', tam: 'ta', guj: 'gu', kan: 'kn', mal: 'ml', mya: 'my', pan: 'pa',
  amh: 'am', sin: 'si', urd: 'ur', pes: 'fa', mar: 'mr', npi: 'ne', bel: 'be', bul: 'bg', kaz: 'kk',
};

/** Scripts of one main language that franc-min has no model for (it answers "und"). */
const SCRIPT_LANGUAGES: [RegExp, string][] = [
  [/\p{Script=Hebrew}/gu, 'he'],
  [/\p{Script=Armenian}/gu, 'hy'],
  [/\p{Script=Georgian}/gu, 'ka'],
  [/\p{Script=Khmer}/gu, 'km'],
  [/\p{Script=Lao}/gu, 'lo'],
];

/**
 * Detects the language of a document from a sample of its text (franc-min, trigram
 * based). Script first: franc confuses short Chinese samples with Japanese.
 */
export function detectLanguage(text: string, fallback = 'en'): string {
  const sample = text.slice(0, 4000);
  const han = (sample.match(/\p{Script=Han}/gu) ?? []).length;
  const kana = (sample.match(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu) ?? []).length;
  const hangul = (sample.match(/\p{Script=Hangul}/gu) ?? []).length;
  const letters = (sample.match(/\p{L}/gu) ?? []).length || 1;
  if (kana / letters > 0.05) return 'ja';
  if (hangul / letters > 0.3) return 'ko';
  if (han / letters > 0.3) return 'zh';
  for (const [script, language] of SCRIPT_LANGUAGES) if ((sample.match(script) ?? []).length / letters > 0.3) return language;
  const code = franc(sample, { minLength: 20 });
  return ISO3_TO_1[code] ?? fallback;
}
