import { describe, expect, it } from 'vitest';
import { startService, waitHealthy } from '../support/processes.js';
import { TEST_ENV } from '../support/config.js';

const SERVICES = [
  { name: 'api', port: TEST_ENV.FRAMEDECK_API_PORT, ready: ['postgres', 'redis', 'clickhouse'] },
  { name: 'ingest-gateway', port: TEST_ENV.FRAMEDECK_INGEST_PORT, ready: ['postgres', 'kafka'] },
  { name: 'events-consumer', port: TEST_ENV.FRAMEDECK_CONSUMER_HEALTH_PORT, ready: ['clickhouse', 'kafka'] },
  { name: 'alert-evaluator', port: TEST_ENV.FRAMEDECK_EVALUATOR_HEALTH_PORT, ready: ['postgres', 'clickhouse'] },
];

describe.each(SERVICES)('$name', ({ name, port, ready }) => {
  it('answers /healthz and /readyz with its dependencies, logs JSON and stops cleanly on SIGTERM', async () => {
    const service = startService(name, { FRAMEDECK_LOG_LEVEL: 'info' });
    try {
      await waitHealthy(`http://127.0.0.1:${port}/healthz`, service);
      const readiness = await fetch(`http://127.0.0.1:${port}/readyz`);
      const body = (await readiness.json()) as { checks: Record<string, string> };
      expect(readiness.status, JSON.stringify(body)).toBe(200);
      expect(Object.keys(body.checks).sort()).toEqual([...ready].sort());
    } finally {
      expect(await service.stop('SIGTERM')).toBe(0);
    }
    const lines = service.output().trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.some((l) => JSON.parse(l).msg === 'shutdown complete')).toBe(true);
  });

  it('refuses to start with a bad configuration value, naming the variable', async () => {
    const portVariable = Object.entries(TEST_ENV).find(([, v]) => v === port)![0];
    const service = startService(name, { [portVariable]: 'not-a-port' });
    expect(await service.exited).toBe(78);
    expect(service.output()).toContain(`${portVariable}="not-a-port"`);
  });
});

describe('readiness', () => {
  it('reports a dependency that does not answer, without revealing its address', async () => {
    const service = startService('api', { FRAMEDECK_REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      await waitHealthy(`http://127.0.0.1:${TEST_ENV.FRAMEDECK_API_PORT}/healthz`, service);
      const res = await fetch(`http://127.0.0.1:${TEST_ENV.FRAMEDECK_API_PORT}/readyz`);
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text).checks.redis).not.toBe('ok');
      expect(text).not.toContain('127.0.0.1');
    } finally {
      await service.stop();
    }
  });
});
