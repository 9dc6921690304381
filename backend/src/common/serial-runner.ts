/**
 * Background work that runs one at a time: on a timer, and at once when asked (`kick`). A
 * kick while it runs asks for one more run right after, so a wake-up arriving mid-run is
 * never lost and two runs never overlap. The job runner (one per lane) and the waiting-list
 * pass use it.
 */
export class SerialRunner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Runs now and then every `intervalMs` (none when 0); the timer keeps no process alive. */
  start(intervalMs: number): void {
    if (intervalMs > 0) {
      this.timer = setInterval(() => this.kick(), intervalMs);
      this.timer.unref();
    }
    this.kick();
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.work()
      .then(() => undefined)
      .catch((err: unknown) => this.onError(err))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Waits until no run is going on (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** No new runs; waits for the current one. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
