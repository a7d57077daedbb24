import type { Queryable } from './queryable.js';

/** What a request learns from a valid key: enough to authorize and to rate-limit it. */
export type ApiKeyPrincipal = {
  keyId: string;
  projectId: string;
  projectName: string;
  tenantId: string;
  planId: string;
  scopes: string[];
};

export type ApiKeyListing = {
  id: string;
  name: string;
  preset: string;
  scopes: string[];
  displayPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  deactivatedAt: Date | null;
};

const LISTING_COLUMNS = `id, name, preset, scopes, display_prefix AS "displayPrefix", created_at AS "createdAt",
  last_used_at AS "lastUsedAt", deactivated_at AS "deactivatedAt"`;

/** Looks a key up by its hash; deactivated keys are not found. */
export async function findActiveKeyByHash(db: Queryable, keyHash: Buffer): Promise<ApiKeyPrincipal | undefined> {
  const { rows } = await db.query<ApiKeyPrincipal>(
    `SELECT k.id AS "keyId", k.project_id AS "projectId", p.name AS "projectName",
            p.tenant_id AS "tenantId", t.plan_id AS "planId", k.scopes
       FROM api_keys k
       JOIN projects p ON p.id = k.project_id
       JOIN tenants t ON t.id = p.tenant_id
      WHERE k.key_hash = $1 AND k.deactivated_at IS NULL`,
    [keyHash],
  );
  return rows[0];
}

export async function insertApiKey(
  db: Queryable,
  input: {
    projectId: string;
    name: string;
    preset: string;
    scopes: readonly string[];
    keyHash: Buffer;
    displayPrefix: string;
  },
): Promise<ApiKeyListing> {
  const { rows } = await db.query<ApiKeyListing>(
    `INSERT INTO api_keys (project_id, name, preset, scopes, key_hash, display_prefix)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${LISTING_COLUMNS}`,
    [input.projectId, input.name, input.preset, input.scopes, input.keyHash, input.displayPrefix],
  );
  return rows[0]!;
}

export async function countActiveKeys(db: Queryable, projectId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM api_keys WHERE project_id = $1 AND deactivated_at IS NULL`,
    [projectId],
  );
  return rows[0]!.n;
}

export async function listKeysOfProject(db: Queryable, projectId: string): Promise<ApiKeyListing[]> {
  const { rows } = await db.query<ApiKeyListing>(
    `SELECT ${LISTING_COLUMNS} FROM api_keys WHERE project_id = $1 ORDER BY created_at DESC`,
    [projectId],
  );
  return rows;
}

/** Returns false when no active key of that project has this id. */
export async function deactivateKey(db: Queryable, projectId: string, keyId: string): Promise<boolean> {
  const result = await db.query(
    `UPDATE api_keys SET deactivated_at = now()
      WHERE id = $1 AND project_id = $2 AND deactivated_at IS NULL`,
    [keyId, projectId],
  );
  return result.rowCount === 1;
}

/** Batched by callers (at most once a minute per key), so a busy key costs no write per request. */
export async function touchKeysLastUsed(db: Queryable, keyIds: readonly string[]): Promise<void> {
  if (keyIds.length === 0) return;
  await db.query(`UPDATE api_keys SET last_used_at = now() WHERE id = ANY($1::uuid[])`, [keyIds]);
}
