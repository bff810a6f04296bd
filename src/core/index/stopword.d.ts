// The `stopword` package ships no types: only the per-language lists the analyzer reads.
declare module 'stopword' {
  export const dan: string[], deu: string[], eng: string[], fin: string[], fra: string[], ita: string[], nld: string[];
  export const nob: string[], por: string[], ron: string[], rus: string[], spa: string[], swe: string[], tur: string[];
  export const ara: string[], bul: string[], ell: string[], gle: string[], hin: string[], hun: string[], hye: string[];
  export const ind: string[], lit: string[], ukr: string[];
}
