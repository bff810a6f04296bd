/**
 * Per-language data for repairing Intl.Segmenter's sentence breaks. ICU (as shipped in
 * browsers and Node) has no abbreviation suppressions, so it breaks after "Dr. " or
 * "U.S. " whenever the next word is capitalised. Keys are lower-case, without the final dot.
 */

/** Abbreviations that (almost) never end a sentence: titles, "Art.", "Fig.", "e.g.". */
const ALWAYS_JOIN: Record<string, string[]> = {
  en: ['mr', 'mrs', 'ms', 'dr', 'prof', 'rev', 'hon', 'st', 'mt', 'ft', 'gen', 'col', 'lt', 'sgt', 'capt', 'gov', 'sen', 'rep', 'pres',
    'no', 'nos', 'art', 'arts', 'fig', 'figs', 'vol', 'vols', 'pp', 'p', 'ch', 'sec', 'cf', 'vs', 'v', 'e.g', 'i.e', 'approx', 'ca', 'est', 'dept', 'univ', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec'],
  pt: ['sr', 'sra', 'srs', 'sras', 'srta', 'dr', 'dra', 'drs', 'prof', 'profa', 'exmo', 'exma', 'av', 'n', 'nº', 'n.º', 'art', 'arts', 'inc', 'al', 'fig', 'p', 'pp', 'pág', 'págs', 'cap', 'vol', 'ex', 'obs', 'cf', 'v', 'etc.º'],
  es: ['sr', 'sra', 'srs', 'sres', 'srta', 'dr', 'dra', 'drs', 'prof', 'profa', 'd', 'dña', 'ud', 'uds', 'av', 'avda', 'n', 'nº', 'núm', 'art', 'arts', 'fig', 'p', 'pp', 'pág', 'págs', 'cap', 'vol', 'ej', 'cf', 'v', 'ee.uu'],
  de: ['hr', 'hrn', 'fr', 'dr', 'prof', 'nr', 'art', 'abs', 'abb', 'bd', 'bzw', 'ca', 'vgl', 'z.b', 'd.h', 'u.a', 'usw', 's', 'st', 'str', 'inkl', 'evtl', 'ggf', 'geb', 'gest', 'jh', 'jhd', 'kap', 'mio', 'mrd', 'o.ä', 'u.ä', 'sog', 'z.t', 'i.d.r', 'u.u'],
};

/**
 * Abbreviations that often do end a sentence ("… in the U.S. The next …"): joined only
 * when the next segment does not begin with a typical sentence opener.
 */
const JOIN_UNLESS_OPENER: Record<string, string[]> = {
  en: ['u.s', 'u.k', 'u.n', 'e.u', 'a.m', 'p.m', 'etc', 'inc', 'ltd', 'co', 'corp', 'jr', 'sr', 'bros', 'a.d', 'b.c', 'ph.d', 'm.d', 'b.a', 'm.a'],
  pt: ['etc', 'ltda', 'a.c', 'd.c', 'p.m', 'a.m', 'eua', 'e.u.a', 's.a', 'jr'],
  es: ['etc', 'a.c', 'd.c', 'p.m', 'a.m', 's.a', 'ltda', 'jr'],
  de: ['etc', 'v.chr', 'n.chr', 'gmbh', 'ag', 'e.v', 'jr'],
};

/** Capitalised words that typically start a sentence, per language (lower-cased). */
const OPENERS: Record<string, string[]> = {
  en: ['the', 'a', 'an', 'this', 'that', 'these', 'those', 'there', 'it', 'its', 'he', 'she', 'they', 'we', 'i', 'you', 'his', 'her', 'their', 'our',
    'in', 'on', 'at', 'for', 'from', 'by', 'with', 'after', 'before', 'during', 'since', 'when', 'while', 'if', 'as', 'but', 'and', 'or', 'so',
    'however', 'although', 'though', 'thus', 'therefore', 'meanwhile', 'also', 'many', 'most', 'some', 'one', 'two', 'both', 'each', 'all', 'other',
    'what', 'who', 'which', 'how', 'why', 'where', 'today', 'then', 'later', 'such', 'no', 'not'],
  pt: ['o', 'a', 'os', 'as', 'um', 'uma', 'este', 'esta', 'isto', 'esse', 'essa', 'isso', 'ele', 'ela', 'eles', 'elas', 'nós', 'eu', 'em', 'no', 'na',
    'nos', 'nas', 'de', 'do', 'da', 'para', 'por', 'com', 'se', 'mas', 'e', 'ou', 'porém', 'contudo', 'assim', 'também', 'depois', 'antes', 'quando', 'não'],
  es: ['el', 'la', 'los', 'las', 'un', 'una', 'este', 'esta', 'esto', 'ese', 'esa', 'eso', 'él', 'ella', 'ellos', 'ellas', 'nosotros', 'yo', 'en',
    'de', 'del', 'para', 'por', 'con', 'si', 'pero', 'y', 'o', 'sin', 'embargo', 'así', 'también', 'después', 'antes', 'cuando', 'no'],
  de: ['der', 'die', 'das', 'ein', 'eine', 'dies', 'diese', 'dieser', 'es', 'er', 'sie', 'wir', 'ich', 'in', 'im', 'am', 'an', 'auf', 'aus', 'bei',
    'mit', 'nach', 'von', 'vor', 'zu', 'zum', 'zur', 'und', 'oder', 'aber', 'doch', 'jedoch', 'also', 'auch', 'dann', 'danach', 'als', 'wenn', 'nicht'],
};

export interface AbbreviationRules {
  always: Set<string>;
  unlessOpener: Set<string>;
  openers: Set<string>;
  /** German writes ordinals as "3. Mai": a number and a dot rarely end a sentence. */
  ordinalDot: boolean;
}

const cache = new Map<string, AbbreviationRules>();

/** Rules for a language; unknown languages get the English rules (the commonest case). */
export function abbreviationRules(language: string): AbbreviationRules {
  const lang = language.toLowerCase().split('-')[0]!;
  const key = ALWAYS_JOIN[lang] ? lang : 'en';
  let rules = cache.get(key);
  if (!rules) {
    rules = {
      always: new Set(ALWAYS_JOIN[key]),
      unlessOpener: new Set(JOIN_UNLESS_OPENER[key]),
      openers: new Set(OPENERS[key]),
      ordinalDot: key === 'de',
    };
    cache.set(key, rules);
  }
  return rules;
}
