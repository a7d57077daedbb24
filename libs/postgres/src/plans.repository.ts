import type { Queryable } from './queryable.js';

export type Plan = {
  id: string;
  name: string;
  apiRequestsPerHour: number;
  /** null = unlimited */
  maxActiveKeysPerProject: number | null;
  /** null = unlimited */
  monthlyEventBudget: number | null;
  ingestBatchesPerSecond: number;
};

const PLAN_COLUMNS = `p.id, p.name, p.api_requests_per_hour AS "apiRequestsPerHour",
  p.max_active_keys_per_project AS "maxActiveKeysPerProject",
  p.monthly_event_budget AS "monthlyEventBudget", p.ingest_batches_per_second AS "ingestBatchesPerSecond"`;

export async function listPlans(db: Queryable): Promise<Plan[]> {
  const { rows } = await db.query<Plan>(`SELECT ${PLAN_COLUMNS} FROM plans p ORDER BY p.api_requests_per_hour`);
  return rows;
}

export async function getPlanOfTenant(db: Queryable, tenantId: string): Promise<Plan | undefined> {
  const { rows } = await db.query<Plan>(
    `SELECT ${PLAN_COLUMNS} FROM plans p JOIN tenants t ON t.plan_id = p.id WHERE t.id = $1`,
    [tenantId],
  );
  return rows[0];
}
