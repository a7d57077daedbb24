import { EVENT_INSERT_COLUMNS, identifier, isUuid, raw, sql, type ClickHouseClient } from '@framedeck/clickhouse';

/**
 * Isolation without rewriting the analyst's SQL: each project gets its own ClickHouse
 * database holding one view, `events`, over the shared events table filtered to that project.
 * Analysts' queries run with that database as the default, so the unqualified `events` they
 * write can only mean their own project's rows.
 *
 * The view exposes every event column except project_id, plus `position` as a tuple.
 * NOTE: FINAL, because at-least-once delivery leaves duplicate rows until merges collapse
 * them (clickhouse/001_events.sql); analysts' counts must not depend on merge timing.
 */
export const ANALYST_COLUMNS = EVENT_INSERT_COLUMNS.filter((column) => column !== 'project_id');

const VIEW_COLUMN_NAMES = [...ANALYST_COLUMNS, 'position'];

/** `fd_p_<project uuid as 32 hex digits>`: derived from the id alone, never from input text. */
export function projectDatabaseName(projectId: string): string {
  if (!isUuid(projectId)) throw new TypeError('project id must be a UUID');
  return `fd_p_${projectId.replace(/-/g, '').toLowerCase()}`;
}

/**
 * Creates (idempotently) and remembers each project's database and view, using the admin
 * client: the sandbox user is read-only. A view whose columns differ from ANALYST_COLUMNS
 * (the events table grew a column) is recreated.
 */
export class ProjectDatabases {
  private readonly ready = new Map<string, Promise<string>>();

  constructor(
    private readonly admin: ClickHouseClient,
    /** Database of the shared `events` table (FRAMEDECK_CLICKHOUSE_DATABASE). */
    private readonly sharedDatabase: string,
  ) {}

  /** The project's database name, once its view exists. */
  ensure(projectId: string): Promise<string> {
    const database = projectDatabaseName(projectId);
    let pending = this.ready.get(database);
    if (!pending) {
      pending = this.create(projectId, database).then(() => database);
      // A failure (ClickHouse down) must not be remembered: the next query tries again.
      pending.catch(() => this.ready.delete(database));
      this.ready.set(database, pending);
    }
    return pending;
  }

  /** Forgets a project's database, e.g. after ClickHouse said it no longer exists. */
  forget(projectId: string): void {
    this.ready.delete(projectDatabaseName(projectId));
  }

  private async create(projectId: string, database: string): Promise<void> {
    const db = identifier(database);
    await this.admin.command({ query: sql`CREATE DATABASE IF NOT EXISTS ${db}`.text });
    const existing = await (
      await this.admin.query({
        query: sql`SELECT name FROM system.columns WHERE database = ${database} AND table = 'events'`.text,
        format: 'JSONEachRow',
      })
    ).json<{ name: string }>();
    const names = existing.map((c) => c.name).sort();
    if (names.length > 0 && names.join() !== [...VIEW_COLUMN_NAMES].sort().join()) {
      await this.admin.command({ query: sql`DROP TABLE IF EXISTS ${db}.events`.text });
    }
    const columns = raw(ANALYST_COLUMNS.join(', ')); // a constant list, not input
    await this.admin.command({
      query: sql`
        CREATE VIEW IF NOT EXISTS ${db}.events AS
        SELECT ${columns}, tuple(position_x, position_y, position_z) AS position
        FROM ${identifier(this.sharedDatabase)}.events FINAL
        WHERE project_id = toUUID(${projectId})`.text,
    });
  }
}
