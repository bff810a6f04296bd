/**
 * One background run the page can pause, resume and cancel (question generation, contexts):
 * its abort signal, and the gate the driver awaits before each call. Cancel also opens the gate,
 * so a paused run sees the abort at once instead of waiting for a resume.
 */
export class RunControl {
  private readonly controller = new AbortController();
  private paused: Promise<void> | null = null;
  private resume: (() => void) | null = null;

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get isPaused(): boolean {
    return this.paused !== null;
  }

  /** What the driver awaits before each call: at once, or when the run is resumed or cancelled. */
  readonly gate = (): Promise<void> => this.paused ?? Promise.resolve();

  /** Pauses or resumes; true when that changed anything (the caller then says the new state). */
  setPaused(pause: boolean): boolean {
    if (pause === this.isPaused || this.signal.aborted) return false;
    if (pause) this.paused = new Promise<void>((r) => (this.resume = r));
    else this.open();
    return true;
  }

  /** Stops after the call in flight (which the signal stops too). */
  cancel(): void {
    this.controller.abort();
    this.open();
  }

  private open(): void {
    this.paused = null;
    this.resume?.();
    this.resume = null;
  }
}
