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
  fr: ['m', 'mm', 'mme', 'mmes', 'mlle', 'mlles', 'dr', 'pr', 'me', 'st', 'ste', 'p', 'pp', 'cf', 'vol', 'chap', 'art', 'n°', 'no', 'fig', 'env', 'ex', 'éd', 'ibid', 'op', 'boul', 'bd', 'av'],
  it: ['sig', 'sigg', 'sig.ra', 'sig.na', 'dott', 'dott.ssa', 'prof', 'prof.ssa', 'ing', 'avv', 'arch', 'on', 'sen', 'dr', 'p', 'pp', 'pag', 'cap', 'art', 'fig', 'vol', 'es', 'cfr', 'ca', 'n'],
  nl: ['dhr', 'mevr', 'mw', 'dr', 'prof', 'ir', 'ing', 'mr', 'drs', 'st', 'blz', 'nr', 'art', 'fig', 'vol', 'bijv', 'bv', 'o.a', 'm.a.w', 'd.w.z', 'i.p.v', 't.a.v', 'ca', 'resp', 'vgl'],
  ro: ['dl', 'dna', 'dnul', 'dnei', 'dr', 'prof', 'ing', 'acad', 'sf', 'nr', 'str', 'bd', 'art', 'alin', 'cap', 'pag', 'p', 'fig', 'vol', 'ex', 'cca', 'aprox', 'sec', 'lb', 'jud', 'pct'],
  ru: ['им', 'ул', 'пр', 'пл', 'проф', 'акад', 'доц', 'канд', 'см', 'стр', 'с', 'рис', 'табл', 'гл', 'ст', 'п', 'т', 'тыс', 'млн', 'млрд', 'т.е', 'т.к', 'т.н', 'напр', 'ок', 'св', 'оз', 'р', 'ген', 'тов', 'гр', 'д'],
  uk: ['ім', 'вул', 'пр', 'пл', 'проф', 'акад', 'доц', 'див', 'с', 'рис', 'табл', 'гл', 'ст', 'п', 'т', 'тис', 'млн', 'млрд', 'т.зв', 'напр', 'бл', 'св', 'оз', 'м', 'обл'],
  pl: ['dr', 'prof', 'mgr', 'inż', 'hab', 'np', 'm.in', 'tzn', 'tj', 'ul', 'al', 'pl', 'nr', 'godz', 'str', 's', 'ok', 'ks', 'św', 'gen', 'płk', 'ppłk', 'por', 'kpt', 'tzw', 'wg', 'ob'],
  tr: ['dr', 'prof', 'doç', 'yrd', 'av', 'op', 'sn', 'bkz', 'no', 's', 'md', 'örn', 'yy', 'mah', 'cad', 'sok', 'apt', 'bşk', 'gen', 'alb', 'yb', 'uzm'],
  el: ['κ', 'κα', 'δρ', 'καθ', 'π.χ', 'δηλ', 'βλ', 'σελ', 'αρ', 'τ.μ', 'χλμ', 'εκ', 'αι', 'λ.χ', 'στρ', 'υπ', 'αγ', 'οδ'],
  // Hindi ends sentences with the danda (।): a full stop there is an abbreviation's. Initials are Latin letters'
  // names: those of one Devanagari letter (बी, के) are initials by script (sentences.ts), the longer ones are listed.
  hi: ['डॉ', 'डा', 'प्रो', 'श्री', 'सं', 'पृ', 'ई', 'ई.पू', 'मि', 'कि.मी', 'वि.सं', 'ले', 'क्र', 'स्व',
    'आर', 'एस', 'एम', 'एन', 'एल', 'एफ', 'एच', 'एक्स', 'डब्ल्यू', 'वाई', 'क्यू', 'जेड'],
  vi: ['tp', 'ts', 'ths', 'th.s', 'pgs', 'gs', 'bs', 'ks', 'ls', 'tx', 'tt', 'st', 'tr', 'sđd', 'stt', 'ng', 'đ', 'nxb'],
  id: ['bpk', 'sdr', 'sdri', 'dr', 'drs', 'dra', 'ir', 'prof', 'h', 'hj', 'jl', 'no', 'hlm', 'kab', 'kec', 'kel', 'tn', 'ny', 'nn', 'a.n', 'u.p', 'd.a', 'kol', 'let'],
  // Arabic: one letter and a dot is an abbreviation (د. for a doctor, ص. for a page), handled with the initials below.
  ar: ['أ.د', 'ص', 'ج', 'ط', 'د'],
};
/** Languages that share another's rules (Malay abbreviates as Indonesian does). */
const SAME_RULES: Record<string, string> = { ms: 'id' };

/**
 * Abbreviations that often do end a sentence ("… in the U.S. The next …"): joined only
 * when the next segment does not begin with a typical sentence opener.
 */
const JOIN_UNLESS_OPENER: Record<string, string[]> = {
  en: ['u.s', 'u.k', 'u.n', 'e.u', 'a.m', 'p.m', 'etc', 'inc', 'ltd', 'co', 'corp', 'jr', 'sr', 'bros', 'a.d', 'b.c', 'ph.d', 'm.d', 'b.a', 'm.a'],
  pt: ['etc', 'ltda', 'a.c', 'd.c', 'p.m', 'a.m', 'eua', 'e.u.a', 's.a', 'jr'],
  es: ['etc', 'a.c', 'd.c', 'p.m', 'a.m', 's.a', 'ltda', 'jr'],
  de: ['etc', 'v.chr', 'n.chr', 'gmbh', 'ag', 'e.v', 'jr'],
  fr: ['etc', 'j.-c', 'inc', 'cie', 'ltd'],
  it: ['ecc', 's.p.a', 's.r.l', 'a.c', 'd.c'],
  nl: ['enz', 'e.d', 'n.v', 'b.v', 'v.chr', 'n.chr'],
  ro: ['etc', 'ș.a.m.d', 'ş.a.m.d', 'ș.a', 'ş.a', 'î.hr', 'd.hr', 's.a', 's.r.l'],
  // "г." is a year after a number ("в 1782 г.") and may end a sentence, a town before a name ("г. Москва").
  ru: ['г', 'гг', 'в', 'вв', 'т.д', 'т.п', 'др', 'руб', 'коп'],
  uk: ['р', 'рр', 'ст', 'т.д', 'т.п', 'ін', 'грн'],
  pl: ['itd', 'itp', 'r', 'w', 'tys', 'mln', 'zł', 'p.n.e', 'n.e'],
  tr: ['vb', 'vs', 'a.ş', 'ltd', 'şti', 'm.ö', 'm.s'],
  el: ['κ.λπ', 'κ.ά', 'π.χ', 'μ.χ', 'α.ε', 'ε.π.ε'],
  vi: ['v.v', 'vv'],
  id: ['dll', 'dsb', 'dst', 'tsb', 'pt', 'tbk', 'cv', 'm', 'sm'],
  ar: ['م', 'هـ', 'ق.م'],
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
  fr: ['le', 'la', 'les', 'l', 'un', 'une', 'des', 'ce', 'cette', 'ces', 'il', 'elle', 'ils', 'elles', 'nous', 'on', 'je', 'en', 'dans', 'au', 'aux',
    'pour', 'par', 'avec', 'mais', 'et', 'ou', 'donc', 'puis', 'après', 'avant', 'depuis', 'quand', 'si', 'cependant', 'toutefois', 'ainsi', 'c', 'd', 'ne', 'pas'],
  it: ['il', 'lo', 'la', 'l', 'i', 'gli', 'le', 'un', 'una', 'uno', 'questo', 'questa', 'egli', 'lui', 'lei', 'essi', 'noi', 'io', 'in', 'nel', 'nella',
    'per', 'con', 'da', 'dal', 'dopo', 'prima', 'quando', 'se', 'ma', 'e', 'o', 'però', 'tuttavia', 'così', 'anche', 'non'],
  nl: ['de', 'het', 'een', 'dit', 'deze', 'die', 'dat', 'hij', 'zij', 'ze', 'wij', 'we', 'ik', 'in', 'op', 'aan', 'voor', 'met', 'na', 'bij', 'toen',
    'als', 'maar', 'en', 'of', 'ook', 'daarna', 'niet'],
  ro: ['în', 'la', 'pe', 'de', 'cu', 'din', 'după', 'când', 'dar', 'iar', 'și', 'sau', 'el', 'ea', 'ei', 'ele', 'noi', 'eu', 'acesta', 'aceasta',
    'acest', 'această', 'un', 'o', 'nu', 'apoi', 'totuși', 'astfel'],
  ru: ['в', 'во', 'на', 'он', 'она', 'они', 'оно', 'это', 'этот', 'эта', 'эти', 'тот', 'та', 'те', 'мы', 'я', 'вы', 'его', 'её', 'их', 'по', 'с',
    'со', 'к', 'из', 'за', 'для', 'после', 'до', 'когда', 'если', 'но', 'и', 'а', 'однако', 'также', 'затем', 'потом', 'так', 'здесь', 'там', 'не'],
  uk: ['в', 'у', 'на', 'він', 'вона', 'вони', 'воно', 'це', 'цей', 'ця', 'ці', 'той', 'ми', 'я', 'ви', 'його', 'її', 'їх', 'по', 'з', 'із', 'до',
    'за', 'для', 'після', 'коли', 'якщо', 'але', 'і', 'й', 'а', 'однак', 'також', 'потім', 'так', 'тут', 'там', 'не'],
  pl: ['w', 'we', 'na', 'z', 'do', 'po', 'to', 'ten', 'ta', 'te', 'on', 'ona', 'oni', 'my', 'ja', 'jest', 'nie', 'ale', 'i', 'a', 'jednak', 'także',
    'potem', 'wtedy', 'kiedy', 'gdy', 'jeśli', 'dla', 'od', 'przez'],
  tr: ['bu', 'o', 'bir', 'şu', 'bunlar', 'onlar', 've', 'ama', 'fakat', 'ancak', 'daha', 'sonra', 'en', 'çünkü', 'eğer', 'ben', 'biz', 'siz', 'her',
    'bazı', 'hiç', 'böylece'],
  el: ['ο', 'η', 'το', 'οι', 'τα', 'τον', 'την', 'του', 'της', 'των', 'ένας', 'μια', 'ένα', 'αυτός', 'αυτή', 'αυτό', 'στο', 'στη', 'στην', 'στον',
    'στα', 'σε', 'με', 'για', 'από', 'μετά', 'πριν', 'όταν', 'αν', 'αλλά', 'και', 'ή', 'όμως', 'επίσης', 'έτσι', 'δεν'],
  vi: ['tôi', 'chúng', 'anh', 'chị', 'ông', 'bà', 'họ', 'nó', 'cô', 'đây', 'đó', 'này', 'khi', 'nếu', 'nhưng', 'và', 'vì', 'trong', 'tại', 'sau',
    'trước', 'theo', 'các', 'những', 'một', 'không', 'có'],
  id: ['ini', 'itu', 'dia', 'ia', 'mereka', 'kami', 'kita', 'saya', 'di', 'ke', 'dari', 'pada', 'dalam', 'untuk', 'dengan', 'setelah', 'sebelum',
    'ketika', 'jika', 'tetapi', 'dan', 'atau', 'namun', 'selain', 'juga', 'sejak', 'tidak'],
  ar: ['في', 'وفي', 'و', 'ثم', 'لكن', 'ولكن', 'كما', 'وقد', 'قد', 'كان', 'وكان', 'هذا', 'هذه', 'وهذا', 'إن', 'أن', 'ومن', 'من', 'على', 'عند', 'بعد',
    'وبعد', 'قبل', 'لم', 'لا', 'وفقا', 'منذ', 'ومنذ'],
};

export interface AbbreviationRules {
  always: Set<string>;
  unlessOpener: Set<string>;
  openers: Set<string>;
  /** German writes ordinals as "3. Mai": a number and a dot rarely end a sentence. */
  ordinalDot: boolean;
}

const cache = new Map<string, AbbreviationRules>();

/** Rules for a language; languages without a list get the English rules (the commonest case). */
export function abbreviationRules(language: string): AbbreviationRules {
  const primary = language.toLowerCase().split(/[-_]/)[0]!;
  const lang = SAME_RULES[primary] ?? primary;
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
