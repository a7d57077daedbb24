import type Provider from 'oidc-provider';
import type { Scope } from '@framedeck/auth';
import {
  deleteOAuthConsentOf,
  destroyOAuthGrant,
  findOAuthConsentOf,
  inTransaction,
  listAuthorizedApps,
  listProjectsOfTenant,
  saveOAuthConsent,
  type Pool,
} from '@framedeck/postgres';
import type { AuthorizedAppView } from './authorized-app.schema.js';

/**
 * Grants as FrameDeck sees them: which projects and scopes a user gave a client. The library
 * keeps the grant (scopes) and its tokens; oauth_consents adds the projects and the bookkeeping
 * the dashboard shows.
 */
export class OAuthGrants {
  constructor(private readonly deps: { provider: Provider; pool: Pool; apiResource: string }) {}

  /**
   * Records a consent as a new grant and returns its id. A previous grant of the same user for
   * the same client is revoked with all its tokens: an app holds exactly what was last approved.
   */
  async recordConsent(input: {
    userId: string;
    tenantId: string;
    clientId: string;
    scopes: Scope[];
    projectIds: string[];
  }): Promise<string> {
    const { provider, pool, apiResource } = this.deps;
    const grant = new provider.Grant({ accountId: input.userId, clientId: input.clientId });
    grant.addResourceScope(apiResource, input.scopes.join(' '));
    const grantId = await grant.save();
    const previous = await findOAuthConsentOf(pool, input.userId, input.clientId);
    await inTransaction(pool, async (tx) => {
      await saveOAuthConsent(tx, { ...input, grantId });
      if (previous && previous.grantId !== grantId) await destroyOAuthGrant(tx, previous.grantId);
    });
    return grantId;
  }

  async listAuthorizedApps(user: { id: string; tenantId: string }): Promise<AuthorizedAppView[]> {
    const [apps, projects] = await Promise.all([
      listAuthorizedApps(this.deps.pool, user.id),
      listProjectsOfTenant(this.deps.pool, user.tenantId),
    ]);
    const names = new Map(projects.map((p) => [p.id, p.name]));
    return apps.map((app) => ({
      clientId: app.clientId,
      clientName: app.clientName,
      redirectHosts: [...new Set(app.redirectUris.map(hostOf).filter((h): h is string => h !== undefined))],
      scopes: app.scopes,
      // Projects deleted since the consent are no longer reachable, so not listed either.
      projects: app.projectIds.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! })),
      createdAt: app.createdAt.toISOString(),
      lastUsedAt: app.lastUsedAt?.toISOString() ?? null,
    }));
  }

  /** Revokes the app: its grant, every access and refresh token and any unused code, at once. */
  async revokeApp(userId: string, clientId: string): Promise<boolean> {
    return inTransaction(this.deps.pool, async (tx) => {
      const grantId = await deleteOAuthConsentOf(tx, userId, clientId);
      if (grantId === undefined) return false;
      await destroyOAuthGrant(tx, grantId);
      return true;
    });
  }
}

function hostOf(uri: string): string | undefined {
  try {
    return new URL(uri).host;
  } catch {
    return undefined;
  }
}
