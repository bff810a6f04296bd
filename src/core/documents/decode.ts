/** Turns file bytes into text, or says precisely why it cannot. */
export interface Decoded {
  text: string;
  encoding: string;
}

/**
 * Decodes text bytes: a BOM decides (UTF-8, UTF-16LE/BE); otherwise strict UTF-8, and
 * if that fails, Windows-1252 (a superset of Latin-1, the commonest legacy encoding).
 * Returns null for binary data (NUL bytes or many control characters in UTF-8/8-bit text).
 */
export function decodeText(bytes: Uint8Array): Decoded | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  }
  if (looksBinary(bytes)) return null;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: fixC1(new TextDecoder('windows-1252').decode(bytes)), encoding: 'windows-1252' };
  }
}

function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return n > 0 && control / n > 0.05;
}

/** Windows-1252's characters for bytes 0x80–0x9F (undefined bytes keep their code). */
const CP1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * Node's TextDecoder('windows-1252') decodes 0x80–0x9F as Latin-1 control characters
 * (nodejs/node#56542), losing €, dashes and smart quotes; browsers get them right. Real
 * text never holds C1 controls, so mapping them is safe everywhere.
 */
function fixC1(text: string): string {
  return text.replace(/[\u0080-\u009f]/g, (c) => CP1252_C1[c.charCodeAt(0) - 0x80]!);
}
