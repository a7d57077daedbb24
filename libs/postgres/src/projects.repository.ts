import type { Queryable } from './queryable.js';

export type Project = { id: string; tenantId: string; name: string; createdAt: Date };

const PROJECT_COLUMNS = `id, tenant_id AS "tenantId", name, created_at AS "createdAt"`;

export async function createProject(db: Queryable, input: { tenantId: string; name: string }): Promise<Project> {
  const { rows } = await db.query<Project>(
    `INSERT INTO projects (tenant_id, name) VALUES ($1, $2) RETURNING ${PROJECT_COLUMNS}`,
    [input.tenantId, input.name],
  );
  return rows[0]!;
}

export async function getProject(db: Queryable, id: string): Promise<Project | undefined> {
  const { rows } = await db.query<Project>(`SELECT ${PROJECT_COLUMNS} FROM projects WHERE id = $1`, [id]);
  return rows[0];
}

export async function listProjectsOfTenant(db: Queryable, tenantId: string): Promise<Project[]> {
  const { rows } = await db.query<Project>(
    `SELECT ${PROJECT_COLUMNS} FROM projects WHERE tenant_id = $1 ORDER BY created_at, name`,
    [tenantId],
  );
  return rows;
}

/** What the project status shows from Postgres: its maps and its active API keys. */
export async function countProjectResources(
  db: Queryable,
  projectId: string,
): Promise<{ maps: number; activeKeys: number }> {
  const { rows } = await db.query<{ maps: number; activeKeys: number }>(
    `SELECT (SELECT count(*)::int FROM maps WHERE project_id = $1) AS maps,
            (SELECT count(*)::int FROM api_keys WHERE project_id = $1 AND deactivated_at IS NULL) AS "activeKeys"`,
    [projectId],
  );
  return rows[0]!;
}
