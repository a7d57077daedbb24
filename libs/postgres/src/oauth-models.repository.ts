import type { Queryable } from './queryable.js';

/**
 * Storage for the OAuth authorization server's models (oidc-provider's adapter contract).
 * Payloads are the library's own documents; this module only files them by model and id.
 * Callers decide what `id` is: for bearer secrets it is already a hash of the value.
 */
export type OAuthModelPayload = Record<string, unknown>;

export async function upsertOAuthModel(
  db: Queryable,
  input: {
    model: string;
    id: string;
    payload: OAuthModelPayload;
    grantId?: string | undefined;
    uid?: string | undefined;
    expiresAt: Date | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO oauth_models (model, id, payload, grant_id, uid, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (model, id) DO UPDATE
       SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
           expires_at = EXCLUDED.expires_at`,
    [input.model, input.id, JSON.stringify(input.payload), input.grantId ?? null, input.uid ?? null, input.expiresAt],
  );
}

const LIVE = `(expires_at IS NULL OR expires_at > now())`;

export async function findOAuthModel(db: Queryable, model: string, id: string): Promise<OAuthModelPayload | undefined> {
  const { rows } = await db.query<{ payload: OAuthModelPayload }>(
    `SELECT payload FROM oauth_models WHERE model = $1 AND id = $2 AND ${LIVE}`,
    [model, id],
  );
  return rows[0]?.payload;
}

export async function findOAuthModelByUid(
  db: Queryable,
  model: string,
  uid: string,
): Promise<{ id: string; payload: OAuthModelPayload } | undefined> {
  const { rows } = await db.query<{ id: string; payload: OAuthModelPayload }>(
    `SELECT id, payload FROM oauth_models WHERE model = $1 AND uid = $2 AND ${LIVE}`,
    [model, uid],
  );
  return rows[0];
}

/**
 * Marks a code or refresh token as used, atomically: true when this call consumed it, false
 * when it was consumed already (by a concurrent request that read it unconsumed at the same
 * moment) or is gone. The library refuses (and revokes) on any later use.
 */
export async function consumeOAuthModel(
  db: Queryable,
  model: string,
  id: string,
): Promise<{ consumed: boolean; grantId: string | null }> {
  const { rows } = await db.query<{ grantId: string | null }>(
    `UPDATE oauth_models SET payload = payload || jsonb_build_object('consumed', floor(extract(epoch FROM now()))::bigint)
      WHERE model = $1 AND id = $2 AND NOT payload ? 'consumed'
      RETURNING grant_id AS "grantId"`,
    [model, id],
  );
  if (rows[0]) return { consumed: true, grantId: rows[0].grantId };
  const existing = await db.query<{ grantId: string | null }>(
    `SELECT grant_id AS "grantId" FROM oauth_models WHERE model = $1 AND id = $2`,
    [model, id],
  );
  return { consumed: false, grantId: existing.rows[0]?.grantId ?? null };
}

export async function destroyOAuthModel(db: Queryable, model: string, id: string): Promise<void> {
  await db.query(`DELETE FROM oauth_models WHERE model = $1 AND id = $2`, [model, id]);
}

export async function destroyOAuthModelsOfGrant(db: Queryable, model: string, grantId: string): Promise<void> {
  await db.query(`DELETE FROM oauth_models WHERE model = $1 AND grant_id = $2`, [model, grantId]);
}

/** Models issued under a grant, which die with it. */
const GRANT_BOUND_MODELS = ['AccessToken', 'RefreshToken', 'AuthorizationCode'];

/**
 * The grant itself and every code and token issued under it, in one statement.
 * NOTE: other models (an in-progress Interaction, a browser Session) also mention a grant id
 * and must survive: the user may be re-consenting right now.
 */
export async function destroyOAuthGrant(db: Queryable, grantId: string): Promise<void> {
  await db.query(
    `DELETE FROM oauth_models
      WHERE (model = ANY($2::text[]) AND grant_id = $1) OR (model = 'Grant' AND id = $1)`,
    [grantId, GRANT_BOUND_MODELS],
  );
}

/** Expired rows are invisible already; this only reclaims their space. */
export async function deleteExpiredOAuthModels(db: Queryable): Promise<number> {
  const result = await db.query(`DELETE FROM oauth_models WHERE expires_at <= now()`);
  return result.rowCount ?? 0;
}
