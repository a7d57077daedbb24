import type Provider from 'oidc-provider';
import type { Logger } from '@framedeck/logging';
import { findOAuthGrantAccess, touchOAuthConsentsLastUsed, type Pool } from '@framedeck/postgres';
import type { BearerGrant, BearerTokenVerifier } from '../http/principal.js';
import { grantableScopes } from './scope.policy.js';

/**
 * Resolves an OAuth access token to what it may do: the scopes the token carries that its
 * grant still allows, on the consented projects that still belong to the tenant.
 * DECISION: no cache. Tokens are opaque and looked up on every request (primary-key reads of
 * the token, its consent and its grant), so a revocation — by the app, by the user in the
 * dashboard, or by refresh-token reuse detection — takes effect on the very next request.
 */
export class OAuthBearerVerifier implements BearerTokenVerifier {
  private readonly usedGrants = new Set<string>();
  private readonly flushTimer: NodeJS.Timeout;

  constructor(
    private readonly deps: { provider: Provider; pool: Pool; apiResource: string; logger: Logger },
    options: { lastUsedFlushMs: number },
  ) {
    this.flushTimer = setInterval(() => void this.flush(), options.lastUsedFlushMs).unref();
  }

  async verify(token: string): Promise<BearerGrant | null> {
    if (token.length > 128) return null; // ours are 43 characters; never look up junk
    const accessToken = await this.deps.provider.AccessToken.find(token);
    if (!accessToken?.grantId || !audienceIncludes(accessToken.aud, this.deps.apiResource)) return null;
    const access = await findOAuthGrantAccess(this.deps.pool, accessToken.grantId);
    if (!access || access.projectIds.length === 0) return null;
    const allowed = new Set(access.scopes);
    const scopes = grantableScopes(accessToken.scopes).filter((s) => allowed.has(s));
    if (scopes.length === 0) return null;
    this.usedGrants.add(accessToken.grantId);
    return {
      tenantId: access.tenantId,
      projectIds: access.projectIds,
      scopes,
      clientId: accessToken.clientId,
      subject: access.userId,
    };
  }

  /** Writes the last-use times gathered since the previous flush, in one statement. */
  async flush(): Promise<void> {
    if (this.usedGrants.size === 0) return;
    const grantIds = [...this.usedGrants];
    this.usedGrants.clear();
    await touchOAuthConsentsLastUsed(this.deps.pool, grantIds).catch((error: unknown) =>
      this.deps.logger.warn({ err: error }, 'could not record OAuth app last use'),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flush();
  }
}

function audienceIncludes(aud: unknown, resource: string): boolean {
  return aud === resource || (Array.isArray(aud) && aud.includes(resource));
}
