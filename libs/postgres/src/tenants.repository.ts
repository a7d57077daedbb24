import type { Queryable } from './queryable.js';

export type Tenant = { id: string; name: string; planId: string; createdAt: Date };

export async function createTenant(db: Queryable, input: { name: string; planId: string }): Promise<Tenant> {
  const { rows } = await db.query<Tenant>(
    `INSERT INTO tenants (name, plan_id) VALUES ($1, $2)
     RETURNING id, name, plan_id AS "planId", created_at AS "createdAt"`,
    [input.name, input.planId],
  );
  return rows[0]!;
}

export async function getTenant(db: Queryable, id: string): Promise<Tenant | undefined> {
  const { rows } = await db.query<Tenant>(
    `SELECT id, name, plan_id AS "planId", created_at AS "createdAt" FROM tenants WHERE id = $1`,
    [id],
  );
  return rows[0];
}
