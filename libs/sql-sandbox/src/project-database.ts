import { createHmac } from 'node:crypto';
import {
  EVENT_INSERT_COLUMNS,
  identifier,
  isUuid,
  raw,
  sql,
  type ClickHouseWriter,
  type SqlFragment,
} from '@framedeck/clickhouse';

/** The pipeline's own columns (partition key, rollup ledger), not telemetry. */
const NOT_FOR_ANALYSTS: ReadonlySet<string> = new Set(['project_id', 'retention_days', 'batch_first_index']);

/**
 * Isolation without rewriting the analyst's SQL: each project gets its own ClickHouse
 * database holding one view, `events`, over the shared events table filtered to that project.
 * Analysts' queries run with that database as the default, so the unqualified `events` they
 * write can only mean their own project's rows.
 *
 * On modern servers the view reads the shared table with its definer's rights (SQL SECURITY
 * DEFINER), so its reader needs SELECT on the view only, and the server is a second wall:
 *  - where the server can store users (clickhouse-server, ClickHouse Cloud: a writable access
 *    storage), each project gets its own ClickHouse user, granted SELECT on its own view and
 *    nothing else — not the shared table, not another project's view, not system tables, no
 *    table functions — even if a query got past the parser check;
 *  - where it cannot (the clickhouse-local engine of the local stack reads users from
 *    users.xml only), every project shares the configured sandbox user, whose grants there
 *    (infra/clickhouse-modern/users.d) allow SELECT on the `fd_p_*` project views only: the
 *    server still refuses the shared table, system tables and table functions, and the parser
 *    check (unqualified `events` only) is what keeps one project out of another's view.
 * On 18.16 (no access control) every project shares the sandbox user and the parser check is
 * the wall.
 *
 * On a cluster (the admin writer's `cluster`) every statement runs ON CLUSTER, so the database,
 * view, user, role and quota exist on whichever node the balancer hands an analyst's query to;
 * the view reads the shared Distributed `events`, so it sees the project's rows of every shard.
 * A server quota counts on its own node: the API counts each project's hourly budget in Redis
 * as well (hourly-quota.ts), so N nodes do not make N budgets.
 *
 * The view exposes every event column except project_id, plus `position` as a tuple. Given
 * the project's retention, it shows only the retained window (`timestamp` within the last N
 * days): the retention worker drops expired events a whole week at a time, and on modern
 * servers the TTL acts at merges, so older rows may linger a few days; analysts never see them.
 * retention_days and batch_first_index (stamped on each event by the consumer) are not analyst columns.
 * NOTE: FINAL, because at-least-once delivery leaves duplicate rows until merges collapse
 * them (clickhouse/001_events.sql); analysts' counts must not depend on merge timing.
 */
export const ANALYST_COLUMNS = EVENT_INSERT_COLUMNS.filter((column) => !NOT_FOR_ANALYSTS.has(column));

/** `timestamp` within the last `days` days, as the view's filter holds it; none = every stored event. */
function windowCondition(retainedDays: number | undefined): SqlFragment {
  if (retainedDays === undefined) return raw('');
  if (!Number.isInteger(retainedDays) || retainedDays < 1) {
    throw new TypeError('retained days must be a positive integer');
  }
  return raw(` AND timestamp >= now() - toIntervalDay(${retainedDays})`); // an integer, checked above
}

const VIEW_COLUMN_NAMES = [...ANALYST_COLUMNS, 'position'];

/** Role every per-project sandbox user holds: it carries the hourly quota. */
const ANALYST_ROLE = 'framedeck_analyst';
/** The settings profile (readonly, limits) and the quota whose limits per-project users get: infra/clickhouse/users.xml. */
const SANDBOX_PROFILE = 'sandbox';
const SANDBOX_QUOTA = 'sandbox';

/** `fd_p_<project uuid as 32 hex digits>`: derived from the id alone, never from input text. */
export function projectDatabaseName(projectId: string): string {
  if (!isUuid(projectId)) throw new TypeError('project id must be a UUID');
  return `fd_p_${projectId.replace(/-/g, '').toLowerCase()}`;
}

/** Who runs a project's queries, on which database. */
export type ProjectSandbox = { database: string; user: string; password: string };

export type SandboxAccount = { user: string; password: string };

/**
 * Creates (idempotently) and remembers each project's database, view and (on modern servers)
 * user, through the admin writer: the sandbox users are read-only. A view whose columns differ
 * from ANALYST_COLUMNS (the events table grew a column) is recreated.
 */
export class ProjectDatabases {
  /** Per database: the window its view was built with, and the build. */
  private readonly ready = new Map<string, { retainedDays: number | undefined; sandbox: Promise<ProjectSandbox> }>();
  private analystRole: Promise<void> | undefined;
  private userStorage: Promise<boolean> | undefined;

  constructor(
    private readonly admin: ClickHouseWriter,
    /** Database of the shared `events` table (FRAMEDECK_CLICKHOUSE_DATABASE). */
    private readonly sharedDatabase: string,
    /** The configured sandbox user; on modern servers its password also keys the per-project passwords. */
    private readonly account: SandboxAccount,
  ) {}

  /**
   * The project's database and user, once they exist, its view showing the last
   * `retainedDays` days (the project's retention; none: every stored event). A window other
   * than the one this process built the view with rebuilds it (the setting changed).
   */
  ensure(projectId: string, retainedDays?: number): Promise<ProjectSandbox> {
    const database = projectDatabaseName(projectId);
    const known = this.ready.get(database);
    if (known && known.retainedDays === retainedDays) return known.sandbox;
    const sandbox = this.create(projectId, database, retainedDays);
    // A failure (ClickHouse down) must not be remembered: the next query tries again.
    sandbox.catch(() => this.ready.get(database)?.sandbox === sandbox && this.ready.delete(database));
    this.ready.set(database, { retainedDays, sandbox });
    return sandbox;
  }

  /** Drops a project's database and (where the server stores users) its user. */
  async remove(projectId: string): Promise<void> {
    const database = projectDatabaseName(projectId);
    this.ready.delete(database);
    await this.admin.command(sql`DROP DATABASE IF EXISTS ${identifier(database)}${this.admin.onCluster()}`);
    const engine = await this.admin.engine();
    if (engine.accessControl && (await this.canStoreUsers())) {
      await this.admin.command(sql`DROP USER IF EXISTS ${identifier(database)}${this.admin.onCluster()}`);
    }
  }

  /** Forgets a project's database, e.g. after ClickHouse said it no longer exists. */
  forget(projectId: string): void {
    this.ready.delete(projectDatabaseName(projectId));
  }

  private async create(projectId: string, database: string, retainedDays: number | undefined): Promise<ProjectSandbox> {
    const engine = await this.admin.engine();
    await this.createView(projectId, database, engine.accessControl, retainedDays);
    if (!engine.accessControl || !(await this.canStoreUsers())) return { database, ...this.account };
    const password = projectPassword(this.account.password, projectId);
    await this.createProjectUser(database, password);
    return { database, user: database, password };
  }

  private async createView(
    projectId: string,
    database: string,
    definerRights: boolean,
    retainedDays: number | undefined,
  ): Promise<void> {
    const db = identifier(database);
    const onCluster = this.admin.onCluster();
    await this.admin.command(sql`CREATE DATABASE IF NOT EXISTS ${db}${onCluster}`);
    const existing = await this.admin.rows<{ name: string }>(
      sql`SELECT name FROM system.columns WHERE database = ${database} AND table = 'events'`,
    );
    const names = existing.map((c) => c.name).sort();
    const stale =
      names.length > 0 &&
      (names.join() !== [...VIEW_COLUMN_NAMES].sort().join() ||
        !(await this.hasWindow(database, retainedDays)) ||
        (definerRights && !(await this.hasDefinerRights(database))));
    if (stale) await this.admin.command(sql`DROP TABLE IF EXISTS ${db}.events${onCluster}`);
    const columns = raw(ANALYST_COLUMNS.join(', ')); // a constant list, not input
    // The view's own rights read the shared table; its reader needs SELECT on the view only.
    const security = definerRights ? raw('DEFINER = CURRENT_USER SQL SECURITY DEFINER') : raw('');
    await this.admin.command(sql`
        CREATE VIEW IF NOT EXISTS ${db}.events${onCluster} ${security} AS
        SELECT ${columns}, tuple(position_x, position_y, position_z) AS position
        FROM ${identifier(this.sharedDatabase)}.events FINAL
        WHERE project_id = toUUID(${projectId})${windowCondition(retainedDays)}`);
  }

  /** Whether the stored view filters on this window (the server keeps `toIntervalDay(N)` as written). */
  private async hasWindow(database: string, retainedDays: number | undefined): Promise<boolean> {
    const [view] = await this.admin.rows<{ windowed: number; matching: number }>(
      sql`SELECT position(create_table_query, 'toIntervalDay(') > 0 AS windowed,
                 position(create_table_query, ${`toIntervalDay(${retainedDays})`}) > 0 AS matching
            FROM system.tables WHERE database = ${database} AND name = 'events'`,
    );
    return retainedDays === undefined ? !Number(view?.windowed) : Boolean(Number(view?.matching));
  }

  /** Whether the server has an access storage that CREATE USER can write to (asked once). */
  private canStoreUsers(): Promise<boolean> {
    this.userStorage ??= this.admin
      .rows<{ writable: number }>(
        sql`SELECT count() > 0 AS writable FROM system.user_directories WHERE type IN ('local_directory', 'replicated')`,
      )
      .then(([row]) => Boolean(row?.writable));
    this.userStorage.catch(() => (this.userStorage = undefined));
    return this.userStorage;
  }

  private async hasDefinerRights(database: string): Promise<boolean> {
    const [view] = await this.admin.rows<{ definer: number }>(
      sql`SELECT position(create_table_query, 'SQL SECURITY DEFINER') > 0 AS definer
            FROM system.tables WHERE database = ${database} AND name = 'events'`,
    );
    return Boolean(view?.definer);
  }

  private async createProjectUser(database: string, password: string): Promise<void> {
    await this.ensureAnalystRole();
    const user = identifier(database);
    const onCluster = this.admin.onCluster();
    const identified = sql`IDENTIFIED WITH sha256_password BY ${password}`;
    await this.admin.command(
      sql`CREATE USER IF NOT EXISTS ${user}${onCluster} ${identified} DEFAULT DATABASE ${user} SETTINGS PROFILE ${SANDBOX_PROFILE}`,
    );
    // The configured sandbox password may have changed since the user was created.
    await this.admin.command(sql`ALTER USER ${user}${onCluster} ${identified}`);
    await this.admin.command(sql`GRANT${onCluster} SELECT ON ${user}.events TO ${user}`);
    await this.admin.command(sql`GRANT${onCluster} ${identifier(ANALYST_ROLE)} TO ${user}`);
  }

  /** The role and its quota, once per process: the limits are users.xml's sandbox quota, read back from the server. */
  private ensureAnalystRole(): Promise<void> {
    this.analystRole ??= (async () => {
      const role = identifier(ANALYST_ROLE);
      const onCluster = this.admin.onCluster();
      await this.admin.command(sql`CREATE ROLE IF NOT EXISTS ${role}${onCluster}`);
      const limits = await this.admin.rows<QuotaLimits>(
        sql`SELECT duration, max_queries, max_errors, max_result_rows, max_read_rows, max_execution_time
              FROM system.quota_limits WHERE quota_name = ${SANDBOX_QUOTA}`,
      );
      if (limits.length === 0)
        throw new Error(`ClickHouse has no quota named ${SANDBOX_QUOTA} (infra/clickhouse/users.xml)`);
      await this.admin.command(
        sql`CREATE QUOTA OR REPLACE ${role}${onCluster} KEYED BY user_name ${quotaIntervals(limits)} TO ${role}`,
      );
    })();
    this.analystRole.catch(() => (this.analystRole = undefined));
    return this.analystRole;
  }
}

type QuotaLimits = {
  duration: number;
  max_queries: number | null;
  max_errors: number | null;
  max_result_rows: number | null;
  max_read_rows: number | null;
  max_execution_time: number | null;
};

function quotaIntervals(limits: readonly QuotaLimits[]): SqlFragment {
  const parts = limits.map((l) => {
    const max = (
      [
        ['queries', l.max_queries],
        ['errors', l.max_errors],
        ['result_rows', l.max_result_rows],
        ['read_rows', l.max_read_rows],
        ['execution_time', l.max_execution_time],
      ] as const
    )
      .filter(([, value]) => value !== null && Number(value) > 0)
      .map(([name, value]) => `${name} = ${Number(value)}`);
    return `FOR INTERVAL ${Number(l.duration)} second ${max.length > 0 ? `MAX ${max.join(', ')}` : 'TRACKING ONLY'}`;
  });
  return raw(parts.join(', ')); // numbers read back from the server, formatted as numbers
}

/**
 * A project user's password: derived from the configured sandbox password and the project id,
 * so every API instance computes the same one and nothing is stored.
 */
export function projectPassword(sandboxPassword: string, projectId: string): string {
  return createHmac('sha256', sandboxPassword).update(`framedeck-sandbox:${projectId}`).digest('hex');
}
