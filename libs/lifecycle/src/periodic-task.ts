import type { Logger } from '@framedeck/logging';

/**
 * Runs `work` every `intervalMs`, never two runs at once. `trigger()` asks for a run as soon
 * as the current one ends (the evaluator pokes the deliverer after recording notifications).
 * `stop()` waits for the run in progress, so shutdown never cuts a transaction in half.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private rerun = false;
  private stopped = true;

  constructor(
    private readonly name: string,
    private readonly work: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  trigger(): void {
    if (this.stopped) return;
    if (this.running) this.rerun = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.running) return;
    this.running = this.work().then(
      () => undefined,
      (error: unknown) => this.logger.error({ err: error, task: this.name }, 'periodic task failed'),
    );
    await this.running;
    this.running = undefined;
    if (this.stopped) return;
    const again = this.rerun;
    this.rerun = false;
    this.schedule(again ? 0 : this.intervalMs);
  }
}
