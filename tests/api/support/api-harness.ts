import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createClickHouseReader, createClickHouseWriter } from '@framedeck/clickhouse';
import { createPool } from '@framedeck/postgres';
import { createRedisClient } from '@framedeck/redis';
import { buildApp, type ApiDeps } from '../../../services/api/src/app.js';
import { loadApiConfig } from '../../../services/api/src/config.js';
import { TEST_ENV } from '../../support/config.js';
import { waitFor } from '../../support/wait.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON of any shape; tests assert on it
export type ApiResponse = { status: number; headers: Headers; text: string; body: any };

export type RequestOptions = {
  method?: string;
  key?: string;
  bearer?: string;
  projectId?: string;
  json?: unknown;
  headers?: Record<string, string>;
  rawBody?: string;
  /** multipart/form-data (fetch sets the boundary). */
  form?: FormData;
};

export type TestApi = Awaited<ReturnType<typeof startApi>>;

/**
 * The API built with buildApp on the real test stack (Postgres, Redis, ClickHouse on loopback),
 * listening on an ephemeral port. Each instance gets its own rate-limit namespace in Redis
 * and SQL query slots unless `rateLimitKeyPrefix` / `sqlAdmissionKeyPrefix` is given (two
 * instances sharing one window or one set of slots pass the same).
 */
export async function startApi(
  options: {
    env?: Record<string, string>;
  } & Partial<Pick<ApiDeps, 'bearerVerifier' | 'now' | 'routes' | 'rateLimitKeyPrefix' | 'sqlAdmissionKeyPrefix'>> = {},
) {
  const config = loadApiConfig({
    ...TEST_ENV,
    // Anonymous requests from 127.0.0.1 of every test run share one bucket otherwise.
    FRAMEDECK_API_ANONYMOUS_REQUESTS_PER_HOUR: '100000',
    ...options.env,
  });
  const logs: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logs.push(line) });
  const pool = createPool(config.postgres);
  const redis = createRedisClient(config.redis);
  const clickhouse = createClickHouseWriter(config.clickhouse);
  const clickhouseReader = createClickHouseReader(config.clickhouse);
  // Commands sent before the connection is up fail fast (no offline queue) and would be
  // counted by the in-process fallback instead: start with a connected client, when Redis is up.
  await waitFor(() => redis.status === 'ready' || redis.status === 'reconnecting', {
    timeoutMs: 5_000,
    intervalMs: 10,
    what: 'the Redis client to connect',
  });
  const api = buildApp({
    config,
    logger,
    pool,
    redis,
    clickhouse: { reader: clickhouseReader, writer: clickhouse },
    bearerVerifier: options.bearerVerifier,
    now: options.now,
    routes: options.routes,
    rateLimitKeyPrefix: options.rateLimitKeyPrefix ?? `rl-${randomUUID()}:`,
    // Other test runs on the same Redis must not take this instance's SQL query slots.
    sqlAdmissionKeyPrefix: options.sqlAdmissionKeyPrefix ?? `sqlslots-${randomUUID()}:`,
  });
  const server = api.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;

  async function request(path: string, init: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.key !== undefined) headers['x-api-key'] = init.key;
    if (init.bearer !== undefined) headers.authorization = `Bearer ${init.bearer}`;
    if (init.projectId !== undefined) headers['x-project-id'] = init.projectId;
    let body: string | FormData | undefined = init.form ?? init.rawBody;
    if (init.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(init.json);
    }
    const res = await fetch(baseUrl + path, { method: init.method ?? 'GET', headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  }

  return {
    baseUrl,
    api,
    config,
    pool,
    clickhouse,
    redis,
    logs,
    request,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await api.close();
      await Promise.allSettled([pool.end(), clickhouse.close(), clickhouseReader.close(), redis.quit()]);
    },
  };
}
