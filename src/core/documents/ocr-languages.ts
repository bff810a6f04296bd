/** BCP-47 primary tags to Tesseract's codes, with their names for messages. */
export const OCR_LANGUAGES: Record<string, { code: string; name: string }> = {
  en: { code: 'eng', name: 'English' },
  pt: { code: 'por', name: 'Portuguese' },
  es: { code: 'spa', name: 'Spanish' },
  fr: { code: 'fra', name: 'French' },
  de: { code: 'deu', name: 'German' },
  zh: { code: 'chi_sim', name: 'Chinese (simplified)' },
  it: { code: 'ita', name: 'Italian' },
  nl: { code: 'nld', name: 'Dutch' },
  ja: { code: 'jpn', name: 'Japanese' },
  ru: { code: 'rus', name: 'Russian' },
  ar: { code: 'ara', name: 'Arabic' },
  ko: { code: 'kor', name: 'Korean' },
};

