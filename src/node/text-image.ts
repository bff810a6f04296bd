/** Text drawn as an image with @napi-rs/canvas (fixtures for OCR tests and benches: a "scan" whose words are known). */
import { createCanvas } from '@napi-rs/canvas';

export interface TextImage {
  gray: Uint8Array;
  width: number;
  height: number;
  png: Uint8Array;
}

/** Lines of text in a 10-point serif at `dpi`, black on white, with margins. */
export function textImage(lines: string[], options: { dpi?: number; widthInches?: number; font?: string } = {}): TextImage {
  const dpi = options.dpi ?? 300;
  const px = Math.round((10 / 72) * dpi * 1.4); // 10 pt text, drawn a little larger than body text for a clean scan
  const width = Math.round((options.widthInches ?? 6.5) * dpi);
  const lineHeight = Math.round(px * 1.5);
  const height = lineHeight * lines.length + 2 * px;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000';
  ctx.font = `${px}px ${options.font ?? 'Liberation Serif'}`;
  ctx.textBaseline = 'top';
  lines.forEach((l, i) => ctx.fillText(l, px, px + i * lineHeight));
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = rgba[i * 4]!;
  return { gray, width, height, png: new Uint8Array(canvas.toBuffer('image/png')) };
}
