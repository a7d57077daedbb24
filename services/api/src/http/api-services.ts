import type { ClickHouseReader, ClickHouseWriter } from '@framedeck/clickhouse';
import type { Logger } from '@framedeck/logging';
import type { ApiMetrics } from '@framedeck/metrics';
import type { Pool } from '@framedeck/postgres';
import type { Redis } from '@framedeck/redis';
import type { SqlSandbox } from '@framedeck/sql-sandbox';
import type { ApiConfig } from '../config.js';
import type { ApiKeyAuthenticator } from './api-key.authenticator.js';

/** What route handlers may use. Built once by buildApp; handlers never build clients. */
export type ApiServices = {
  pool: Pool;
  /** Every analytics read. */
  clickhouse: ClickHouseReader;
  /** Erasure mutations only (the sandbox holds its own reference for its per-project views). */
  clickhouseWriter: ClickHouseWriter;
  redis: Redis;
  logger: Logger;
  config: ApiConfig;
  apiKeys: ApiKeyAuthenticator;
  /** The raw-SQL sandbox, loaded on first use (its parser is a WASM module). */
  sqlSandbox: () => Promise<SqlSandbox>;
  metrics: ApiMetrics;
};
