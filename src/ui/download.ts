import { download as downloadUrl } from '../state/export';

/** Builds a text file in the page and hands it to the browser's download; nothing is sent anywhere. */
export function download(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  downloadUrl(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
