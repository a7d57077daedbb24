import { startService, waitHealthy, type RunningService } from '../../support/processes.js';
import { FAULT_PORTS, type FaultStack } from './fault-stack.js';

export type ServiceName = 'gateway' | 'consumer' | 'api';

/**
 * The gateway, the consumer and the API as separate processes on the fault stack, each
 * replaceable after a SIGKILL. `running` always holds the live process of each.
 */
export class FaultServices {
  readonly running = new Map<ServiceName, RunningService>();

  constructor(private readonly stack: FaultStack) {}

  private env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...this.stack.env,
      // A crashed consumer's partitions move to its successor after this (broker minimum 6 s).
      FRAMEDECK_CONSUMER_SESSION_TIMEOUT_MS: '8000',
      // Shorter than the default 5 s so that a Postgres outage of a few seconds reaches the
      // gateway's key lookups instead of being hidden by its cache.
      FRAMEDECK_INGEST_KEY_CACHE_TTL_MS: '1000',
      FRAMEDECK_API_KEY_CACHE_MS: '1000',
      FRAMEDECK_LOG_LEVEL: 'warn',
      ...extra,
    };
  }

  async start(name: ServiceName): Promise<RunningService> {
    // A predecessor that is still alive (e.g. hung after a failed test) would hold the port.
    const previous = this.running.get(name);
    if (previous && previous.child.exitCode === null && previous.child.signalCode === null) {
      previous.child.kill('SIGKILL');
      await previous.exited;
    }
    const [service, port] = {
      gateway: () => [startService('ingest-gateway', this.env()), FAULT_PORTS.ingest] as const,
      consumer: () => [startService('events-consumer', this.env()), FAULT_PORTS.consumerHealth] as const,
      api: () => [startService('api', this.env()), FAULT_PORTS.api] as const,
    }[name]();
    this.running.set(name, service);
    await waitHealthy(`http://127.0.0.1:${port}/healthz`, service, 60_000);
    return service;
  }

  /** A second consumer in the same group (its own health port). */
  async startExtraConsumer(): Promise<RunningService> {
    const service = startService(
      'events-consumer',
      this.env({ FRAMEDECK_CONSUMER_HEALTH_PORT: String(FAULT_PORTS.secondConsumerHealth) }),
    );
    await waitHealthy(`http://127.0.0.1:${FAULT_PORTS.secondConsumerHealth}/healthz`, service, 60_000);
    return service;
  }

  async kill(name: ServiceName): Promise<void> {
    const service = this.get(name);
    service.child.kill('SIGKILL');
    await service.exited;
  }

  get(name: ServiceName): RunningService {
    const service = this.running.get(name);
    if (!service) throw new Error(`${name} is not running`);
    return service;
  }

  /** Starts whichever service is not running (after a failed test), so the next one starts clean. */
  async ensureRunning(): Promise<void> {
    for (const name of ['api', 'gateway', 'consumer'] as const) {
      const service = this.running.get(name);
      if (!service || service.child.exitCode !== null || service.child.signalCode !== null) await this.start(name);
    }
  }

  /** The last lines each service wrote, for a failure message. */
  outputTails(lines = 25): string {
    return [...this.running.entries()]
      .map(
        ([name, s]) =>
          `--- ${name} (exit ${s.child.exitCode ?? s.child.signalCode ?? 'running'}):\n${s.output().split('\n').slice(-lines).join('\n')}`,
      )
      .join('\n');
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.running.values()].map((s) => s.stop()));
    this.running.clear();
  }
}
