/**
 * A progress bar on stderr (stdout stays clean for --json). On a terminal it redraws in
 * place; in logs (CI) it prints a line at every quarter so the output stays short.
 */
export class ProgressBar {
  private lastQuarter = -1;
  private readonly started = performance.now();
  private readonly tty = Boolean(process.stderr.isTTY);

  constructor(private readonly label: string) {}

  update(done: number, total: number): void {
    const frac = total ? Math.min(1, done / total) : 1;
    const elapsed = (performance.now() - this.started) / 1000;
    const eta = frac > 0 && frac < 1 ? ` · ${Math.ceil((elapsed / frac) * (1 - frac))}s left` : '';
    if (this.tty) {
      const width = 24;
      const filled = Math.round(frac * width);
      process.stderr.write(`\r${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}${eta}   `);
      if (done >= total) process.stderr.write('\n');
    } else {
      const q = Math.floor(frac * 4);
      if (q > this.lastQuarter) {
        this.lastQuarter = q;
        process.stderr.write(`${this.label}: ${done}/${total} (${Math.round(frac * 100)}%)${eta}\n`);
      }
    }
  }
}
