import type { Queryable } from './queryable.js';

/** A live dashboard session and the user (a tenant owner) behind it. */
export type DashboardSession = {
  userId: string;
  tenantId: string;
  planId: string;
  email: string;
  /** Every project of the tenant (dashboard users own their tenant). */
  projectIds: string[];
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
};

export async function insertDashboardSession(
  db: Queryable,
  input: { idHash: Buffer; userId: string; expiresAt: Date },
): Promise<void> {
  await db.query(`INSERT INTO dashboard_sessions (id_hash, user_id, expires_at) VALUES ($1, $2, $3)`, [
    input.idHash,
    input.userId,
    input.expiresAt,
  ]);
}

/** Finds a session that is neither past its absolute end nor idle longer than `idleSeconds`. */
export async function findLiveDashboardSession(
  db: Queryable,
  idHash: Buffer,
  idleSeconds: number,
): Promise<DashboardSession | undefined> {
  const { rows } = await db.query<DashboardSession>(
    `SELECT s.user_id AS "userId", u.tenant_id AS "tenantId", t.plan_id AS "planId", u.email,
            ARRAY(SELECT p.id::text FROM projects p WHERE p.tenant_id = u.tenant_id ORDER BY p.created_at)
              AS "projectIds",
            s.created_at AS "createdAt", s.last_seen_at AS "lastSeenAt", s.expires_at AS "expiresAt"
       FROM dashboard_sessions s
       JOIN users u ON u.id = s.user_id
       JOIN tenants t ON t.id = u.tenant_id
      WHERE s.id_hash = $1 AND s.expires_at > now()
        AND s.last_seen_at > now() - make_interval(secs => $2)`,
    [idHash, idleSeconds],
  );
  return rows[0];
}

export async function touchDashboardSession(db: Queryable, idHash: Buffer): Promise<void> {
  await db.query(`UPDATE dashboard_sessions SET last_seen_at = now() WHERE id_hash = $1`, [idHash]);
}

export async function deleteDashboardSession(db: Queryable, idHash: Buffer): Promise<void> {
  await db.query(`DELETE FROM dashboard_sessions WHERE id_hash = $1`, [idHash]);
}

export async function deleteExpiredDashboardSessions(db: Queryable, idleSeconds: number): Promise<number> {
  const result = await db.query(
    `DELETE FROM dashboard_sessions
      WHERE expires_at <= now() OR last_seen_at <= now() - make_interval(secs => $1)`,
    [idleSeconds],
  );
  return result.rowCount ?? 0;
}
