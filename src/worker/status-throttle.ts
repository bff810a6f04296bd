/**
 * At most one progress status a second while embedding or indexing: every status re-renders
 * the page's document list (hundreds of documents after a big import), and at 5 a second
 * that rendering, not the worker, kept a typed question or a click waiting while the model
 * re-cut semantic chunks. Statuses that end a job are posted at once, not through this.
 */
const STATUS_INTERVAL_MS = 1000;

export class StatusThrottle {
  private last = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly post: () => void) {}

  schedule(): void {
    if (this.timer) return;
    const wait = Math.max(0, STATUS_INTERVAL_MS - (performance.now() - this.last));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.last = performance.now();
      this.post();
    }, wait);
  }
}
