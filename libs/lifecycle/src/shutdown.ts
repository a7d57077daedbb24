import type { Logger } from '@framedeck/logging';

type Step = { name: string; run: () => Promise<unknown> | unknown };

/**
 * Ordered, time-boxed, run-once shutdown. Services register steps in the order they must run
 * (stop accepting → drain → flush producers → close clients); a failing or hanging step is
 * logged and skipped so that the next one still runs.
 */
export class Shutdown {
  private readonly steps: Step[] = [];
  private running: Promise<void> | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly stepTimeoutMs = 10_000,
  ) {}

  /** Adds a step; steps run in registration order. */
  add(name: string, run: Step['run']): this {
    this.steps.push({ name, run });
    return this;
  }

  get started(): boolean {
    return this.running !== undefined;
  }

  /** Safe to call any number of times: every caller awaits the same single run. */
  run(reason: string): Promise<void> {
    this.running ??= this.runSteps(reason);
    return this.running;
  }

  private async runSteps(reason: string): Promise<void> {
    this.logger.info({ reason }, 'shutting down');
    for (const step of this.steps) {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          Promise.resolve().then(step.run),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`timed out after ${this.stepTimeoutMs} ms`)), this.stepTimeoutMs);
          }),
        ]);
      } catch (error) {
        this.logger.error({ step: step.name, err: error }, 'shutdown step failed');
      } finally {
        clearTimeout(timer);
      }
    }
    this.logger.info('shutdown complete');
  }

  /** SIGTERM/SIGINT run the shutdown once, then exit; a second signal exits at once. */
  exitOnSignals(): this {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) process.exit(130);
      signalled = true;
      void this.run(signal).then(() => process.exit(0));
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    return this;
  }
}
