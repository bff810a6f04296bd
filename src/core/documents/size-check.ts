/**
 * The file-size limit, apart from the loaders: the page checks a dropped file's size before
 * reading it, and importing this module alone keeps the loaders out of the page's main chunk.
 */

export const DEFAULT_MAX_BYTES = 100 * 1024 * 1024;

/** Why a file of this size is refused, or null: checked before reading it, so a huge file never freezes the tab. */
export function sizeProblem(name: string, size: number, max = DEFAULT_MAX_BYTES): string | null {
  return size > max ? `${name}: the file is ${(size / 1048576).toFixed(1)} MB; the limit is ${(max / 1048576).toFixed(0)} MB` : null;
}
