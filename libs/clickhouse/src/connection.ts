import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseSettings } from '@clickhouse/client';
import type { ClickHouseConfig } from '@framedeck/config';

export type { ClickHouseClient } from '@clickhouse/client';

export type ConnectionOptions = {
  url: string;
  user: string;
  password: string;
  database: string;
  requestTimeoutMs: number;
  /**
   * Silence the client's own console logger: expected failures (an analyst's rejected query,
   * a result stream closed early) are the caller's to report, in the service's JSON logs.
   */
  quiet?: boolean;
  /** Settings of every request on this connection. */
  settings?: ClickHouseSettings;
};

/**
 * One HTTP connection pool to ClickHouse, as every FrameDeck client uses it.
 * NOTE: ClickHouse 18.16 closes idle keep-alive sockets after keep_alive_timeout (10 s in our
 * config, 3 s by default); a socket we keep longer fails the next request with EPIPE. Our idle
 * TTL stays below the server's. No compression: client and server share a machine or a LAN.
 */
export function openConnection(options: ConnectionOptions): ClickHouseClient {
  return createClient({
    url: options.url,
    username: options.user,
    password: options.password,
    database: options.database,
    keep_alive: { enabled: true, idle_socket_ttl: 2_000 },
    request_timeout: options.requestTimeoutMs,
    compression: { request: false, response: false },
    ...(options.quiet ? { log: { level: ClickHouseLogLevel.OFF } } : {}),
    ...(options.settings ? { clickhouse_settings: options.settings } : {}),
  });
}

/**
 * FrameDeck's own service account (not the sandbox's), on the configured database or `database`.
 * Requests time out after a minute unless `requestTimeoutMs` says otherwise (migrations' backfills
 * read every stored event).
 */
export function openServiceConnection(
  config: ClickHouseConfig,
  database = config.database,
  requestTimeoutMs = 60_000,
): ClickHouseClient {
  return openConnection({
    url: config.url,
    user: config.admin.user,
    password: config.admin.password,
    database,
    requestTimeoutMs,
    // On a cluster an INSERT into a Distributed table answers only once every shard it wrote to
    // holds its rows (by default it would queue them on this node and answer at once): the
    // consumer commits Kafka offsets after the insert answers, so they must be durable by then.
    // insert_deduplicate=0: a replicated table drops a block equal to a recent one, and two
    // inserts of other tables may well be equal; redelivered events collapse by FINAL. The
    // rollup insert turns it on for itself (rollups.writer.ts, clickhouse/015).
    ...(config.cluster ? { settings: { insert_distributed_sync: 1, insert_deduplicate: 0 } } : {}),
  });
}
