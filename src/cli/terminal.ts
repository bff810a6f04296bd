/**
 * Text from documents, file names and datasets, made safe to print on a terminal: control
 * characters (C0, DEL, C1: ESC sequences set window titles, clear the screen, recolour) and
 * bidirectional overrides (which reorder what the reader sees) are shown as escapes
 * ("\x1b", "\n", "\u202e"), so a document can never rewrite what the terminal shows, and a
 * newline in a file name cannot break a table's row.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function visible(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return NAMED[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}
