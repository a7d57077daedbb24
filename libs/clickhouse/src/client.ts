import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import type { ClickHouseConfig } from '@framedeck/config';

export type { ClickHouseClient } from '@clickhouse/client';

/**
 * The writer/admin client: migrations and inserts.
 * NOTE: ClickHouse 18.16 closes idle keep-alive sockets after 3 s; a socket we keep longer
 * fails the next request with EPIPE. Our idle TTL stays below the server's.
 */
export function createAdminClient(config: ClickHouseConfig, options: { database?: string } = {}): ClickHouseClient {
  return createClient({
    url: config.url,
    username: config.admin.user,
    password: config.admin.password,
    database: options.database ?? config.database,
    keep_alive: { enabled: true, idle_socket_ttl: 2_000 },
    request_timeout: 60_000,
    compression: { request: false, response: false },
    clickhouse_settings: {},
  });
}

/** The sandbox client runs analysts' SQL as the read-only, resource-limited user. */
export function createSandboxClient(config: ClickHouseConfig, database: string): ClickHouseClient {
  return createClient({
    url: config.url,
    username: config.sandbox.user,
    password: config.sandbox.password,
    database,
    keep_alive: { enabled: true, idle_socket_ttl: 2_000 },
    request_timeout: 30_000,
    // NOTE: analysts' rejected queries and early-closed result streams are expected outcomes
    // that the caller reports; the client's own console logger would print each one (with
    // the query's settings) outside the service's JSON logs.
    log: { level: ClickHouseLogLevel.OFF },
  });
}

/** Creates the configured database if missing (needs a client not bound to that database). */
export async function ensureClickHouseDatabase(config: ClickHouseConfig): Promise<void> {
  const client = createAdminClient(config, { database: 'default' });
  try {
    await client.command({ query: `CREATE DATABASE IF NOT EXISTS \`${config.database}\`` });
  } finally {
    await client.close();
  }
}
