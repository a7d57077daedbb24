import type { Queryable } from './queryable.js';

/**
 * The retention periods a plan or project may have, in days. A short list on purpose:
 * ClickHouse partitions events by (retention_days, week) (clickhouse/009), so every distinct
 * value is its own set of partitions. The same list is the CHECK of migration 007.
 */
export const RETENTION_DAYS_CHOICES = [7, 14, 30, 60, 90, 180, 365, 730] as const;

/** The project's own setting where it has one, else its plan's. */
const EFFECTIVE_DAYS = 'COALESCE(p.raw_retention_days, pl.raw_retention_days)';

/** How many days the project keeps raw events. */
export async function getProjectRetentionDays(db: Queryable, projectId: string): Promise<number | undefined> {
  const { rows } = await db.query<{ days: number }>(
    `SELECT ${EFFECTIVE_DAYS} AS days
       FROM projects p JOIN tenants t ON t.id = p.tenant_id JOIN plans pl ON pl.id = t.plan_id
      WHERE p.id = $1`,
    [projectId],
  );
  return rows[0]?.days;
}

/** Sets the project's own retention; null falls back to its plan's. */
export async function setProjectRetentionDays(db: Queryable, projectId: string, days: number | null): Promise<void> {
  await db.query(`UPDATE projects SET raw_retention_days = $2 WHERE id = $1`, [projectId, days]);
}
