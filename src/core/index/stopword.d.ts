// The `stopword` package ships no types: only the per-language lists the analyzer reads.
declare module 'stopword' {
  export const dan: string[], deu: string[], eng: string[], fin: string[], fra: string[], ita: string[], nld: string[];
  export const nob: string[], por: string[], ron: string[], rus: string[], spa: string[], swe: string[], tur: string[];
  export const ara: string[], bul: string[], ell: string[], gle: string[], hin: string[], hun: string[], hye: string[];
  export const ind: string[], lit: string[], ukr: string[];
}
declare module 'stopword' {
  export const afr: string[], ben: string[], cat: string[], ces: string[], est: string[], fas: string[], glg: string[], guj: string[];
  export const hau: string[], heb: string[], hrv: string[], jpn: string[], kor: string[], lav: string[], mar: string[], msa: string[];
  export const mya: string[], panGu: string[], pol: string[], slk: string[], slv: string[], som: string[], swa: string[], tgl: string[];
  export const tha: string[], urd: string[], vie: string[], yor: string[], zho: string[], zul: string[];
}
