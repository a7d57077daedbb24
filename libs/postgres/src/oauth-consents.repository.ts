import type { Queryable } from './queryable.js';

/** What a user allowed one OAuth client to do (one row per user and client). */
export type OAuthConsent = {
  grantId: string;
  userId: string;
  tenantId: string;
  clientId: string;
  scopes: string[];
  projectIds: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
};

const CONSENT_COLUMNS = `c.grant_id AS "grantId", c.user_id AS "userId", c.tenant_id AS "tenantId",
  c.client_id AS "clientId", c.scopes, c.project_ids::text[] AS "projectIds", c.created_at AS "createdAt",
  c.last_used_at AS "lastUsedAt"`;

/**
 * Keeps a consent (`c`) only while its grant is alive: the oauth_models row oidc-provider keeps
 * for it, unexpired. A revoked grant (by the user, the app, or reuse detection) has none.
 */
const ALIVE_GRANT = `JOIN oauth_models g ON g.model = 'Grant' AND g.id = c.grant_id
                          AND (g.expires_at IS NULL OR g.expires_at > now())`;

/** Records a consent, replacing the user's previous one for the same client. */
export async function saveOAuthConsent(
  db: Queryable,
  input: Omit<OAuthConsent, 'createdAt' | 'lastUsedAt'>,
): Promise<void> {
  await db.query(
    `INSERT INTO oauth_consents (grant_id, user_id, tenant_id, client_id, scopes, project_ids)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (user_id, client_id) DO UPDATE
       SET grant_id = EXCLUDED.grant_id, tenant_id = EXCLUDED.tenant_id, scopes = EXCLUDED.scopes,
           project_ids = EXCLUDED.project_ids, created_at = now(), last_used_at = NULL`,
    [input.grantId, input.userId, input.tenantId, input.clientId, input.scopes, input.projectIds],
  );
}

export async function findOAuthConsentOf(
  db: Queryable,
  userId: string,
  clientId: string,
): Promise<OAuthConsent | undefined> {
  const { rows } = await db.query<OAuthConsent>(
    `SELECT ${CONSENT_COLUMNS} FROM oauth_consents c WHERE c.user_id = $1 AND c.client_id = $2`,
    [userId, clientId],
  );
  return rows[0];
}

/** What a bearer token of this grant may reach right now. */
export type OAuthGrantAccess = {
  userId: string;
  tenantId: string;
  planId: string;
  scopes: string[];
  /** Consented projects that still exist and still belong to the tenant. */
  projectIds: string[];
};

/**
 * Nothing unless both the consent and the grant are alive. The grant too: oidc-provider's own
 * reuse detection (a refresh token or code found already consumed) destroys the grant and its
 * tokens but knows nothing of the consent, and a request that won the same token a moment
 * earlier may save its new tokens after that; they must not work either
 * (tests/oauth/oauth-attacks.test.ts).
 */
export async function findOAuthGrantAccess(db: Queryable, grantId: string): Promise<OAuthGrantAccess | undefined> {
  const { rows } = await db.query<OAuthGrantAccess>(
    `SELECT c.user_id AS "userId", c.tenant_id AS "tenantId", t.plan_id AS "planId", c.scopes,
            COALESCE(ARRAY(SELECT p.id::text FROM projects p
                            WHERE p.id = ANY (c.project_ids) AND p.tenant_id = c.tenant_id
                            ORDER BY p.created_at), '{}') AS "projectIds"
       FROM oauth_consents c
       JOIN tenants t ON t.id = c.tenant_id
       ${ALIVE_GRANT}
      WHERE c.grant_id = $1`,
    [grantId],
  );
  return rows[0];
}

export type AuthorizedApp = OAuthConsent & { clientName: string | null; redirectUris: string[] };

/** The user's apps whose grant is still alive, newest first, with the client's registered name. */
export async function listAuthorizedApps(db: Queryable, userId: string): Promise<AuthorizedApp[]> {
  const { rows } = await db.query<AuthorizedApp>(
    `SELECT ${CONSENT_COLUMNS}, client.payload->>'client_name' AS "clientName",
            COALESCE(ARRAY(SELECT jsonb_array_elements_text(client.payload->'redirect_uris')), '{}') AS "redirectUris"
       FROM oauth_consents c
       ${ALIVE_GRANT}
       LEFT JOIN oauth_models client ON client.model = 'Client' AND client.id = c.client_id
      WHERE c.user_id = $1
      ORDER BY c.created_at DESC`,
    [userId],
  );
  return rows;
}

/** Removes the user's consent for a client; returns its grant id, or undefined when there was none. */
export async function deleteOAuthConsentOf(
  db: Queryable,
  userId: string,
  clientId: string,
): Promise<string | undefined> {
  const { rows } = await db.query<{ grantId: string }>(
    `DELETE FROM oauth_consents WHERE user_id = $1 AND client_id = $2 RETURNING grant_id AS "grantId"`,
    [userId, clientId],
  );
  return rows[0]?.grantId;
}

/**
 * Removes the consent behind a grant. Bearer tokens are honoured only while their grant's
 * consent exists, so this kills every token of the grant — even one saved a moment later.
 */
export async function deleteOAuthConsentOfGrant(db: Queryable, grantId: string): Promise<void> {
  await db.query(`DELETE FROM oauth_consents WHERE grant_id = $1`, [grantId]);
}

/** Consents whose grant is gone (expired, revoked by reuse detection) only take space. */
export async function deleteOrphanOAuthConsents(db: Queryable): Promise<number> {
  const result = await db.query(
    `DELETE FROM oauth_consents c
      WHERE NOT EXISTS (SELECT 1 FROM oauth_models g WHERE g.model = 'Grant' AND g.id = c.grant_id)`,
  );
  return result.rowCount ?? 0;
}

/** Batched by callers (at most once a minute per grant), so a busy token costs no write per request. */
export async function touchOAuthConsentsLastUsed(db: Queryable, grantIds: readonly string[]): Promise<void> {
  if (grantIds.length === 0) return;
  await db.query(`UPDATE oauth_consents SET last_used_at = now() WHERE grant_id = ANY($1::text[])`, [grantIds]);
}
