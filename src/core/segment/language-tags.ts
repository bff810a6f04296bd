/**
 * The languages the detector (language.ts) names, as tables without franc's trigram data: the
 * page imports DETECTED_LANGUAGES from here for its language choice, and must not load ~240 KB
 * of trigrams to list them.
 */

/**
 * ISO 639-3 (franc) → BCP-47, for every language franc tells by trigrams that the lab names.
 * Only these are candidates (franc's `only`): the rest are minor languages close to a major one
 * that took its documents (Scots for English, Magahi and Bhojpuri for Hindi, Sardinian for Spanish).
 */
export const TRIGRAM_LANGUAGES: Record<string, string> = {
  // Latin
  eng: 'en', spa: 'es', por: 'pt', fra: 'fr', deu: 'de', ita: 'it', nld: 'nl', dan: 'da', swe: 'sv', nob: 'nb', nno: 'nn',
  fin: 'fi', ron: 'ro', pol: 'pl', ces: 'cs', slk: 'sk', slv: 'sl', hrv: 'hr', bos: 'bs', srp: 'sr', hun: 'hu', lit: 'lt',
  lvs: 'lv', ekk: 'et', tur: 'tr', azj: 'az', uzn: 'uz', vie: 'vi', ind: 'id', zlm: 'ms', tgl: 'tl', swh: 'sw', cat: 'ca',
  glg: 'gl', afr: 'af', hau: 'ha', yor: 'yo', ibo: 'ig', som: 'so', zul: 'zu', xho: 'xh', sna: 'sn', kin: 'rw', jav: 'jv',
  sun: 'su', ceb: 'ceb', hat: 'ht', tuk: 'tk', uig: 'ug',
  // Cyrillic
  rus: 'ru', ukr: 'uk', bel: 'be', bul: 'bg', mkd: 'mk', kaz: 'kk', kir: 'ky', tat: 'tt', tgk: 'tg', khk: 'mn',
  // Arabic
  arb: 'ar', pes: 'fa', prs: 'fa', urd: 'ur', pbu: 'ps',
  // Devanagari
  hin: 'hi', mar: 'mr', npi: 'ne',
  // Hebrew, Ethiopic, Myanmar: franc tells two languages of each
  heb: 'he', ydd: 'yi', amh: 'am', tir: 'ti', mya: 'my',
  // One language per script in franc
  ell: 'el', tha: 'th', ben: 'bn', tel: 'te', tam: 'ta', guj: 'gu', kan: 'kn', mal: 'ml', pan: 'pa', sin: 'si',
  kor: 'ko', jpn: 'ja', cmn: 'zh',
};

/** Scripts of one main language that franc has no model for (it answers "und"). */
export const SCRIPT_LANGUAGES: [RegExp, string][] = [
  [/\p{Script=Armenian}/gu, 'hy'],
  [/\p{Script=Georgian}/gu, 'ka'],
  [/\p{Script=Khmer}/gu, 'km'],
  [/\p{Script=Lao}/gu, 'lo'],
  [/\p{Script=Tibetan}/gu, 'bo'],
  [/\p{Script=Mongolian}/gu, 'mn'],
];

/** Every language the detector names (BCP-47), for a page that lets the user choose one. */
export const DETECTED_LANGUAGES: readonly string[] = [...new Set([...Object.values(TRIGRAM_LANGUAGES), ...SCRIPT_LANGUAGES.map(([, l]) => l)])].sort();

