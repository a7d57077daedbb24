import { ApiKeyLookup } from '@framedeck/accounts';
import { isScope } from '@framedeck/auth';
import type { Logger } from '@framedeck/logging';
import type { Pool } from '@framedeck/postgres';
import type { Principal } from './principal.js';

/**
 * Turns X-API-Key values into principals, through the lookup the ingest gateway shares
 * (cached by hash, last use recorded in batches).
 *
 * NOTE: a key deactivated through this instance is forgotten at once; other API instances may
 * accept it for up to `cacheMs` more.
 */
export class ApiKeyAuthenticator {
  private readonly lookup: ApiKeyLookup;

  constructor(
    deps: { pool: Pool; logger: Logger },
    options: { cacheMs: number; flushMs: number; maxCachedKeys?: number },
  ) {
    this.lookup = new ApiKeyLookup(deps.pool, {
      ttlMs: options.cacheMs,
      // A key created a moment ago (e.g. in the dashboard) must work almost at once.
      negativeTtlMs: Math.min(options.cacheMs, 1_000),
      lastUsedFlushMs: options.flushMs,
      maxEntries: options.maxCachedKeys,
      onFlushError: (error, keys) => deps.logger.warn({ err: error, keys }, 'could not record API key last use'),
    });
  }

  async authenticate(rawKey: string): Promise<Principal | undefined> {
    const key = await this.lookup.find(rawKey);
    if (!key) return undefined;
    return {
      tenantId: key.tenantId,
      projectIds: [key.projectId],
      scopes: key.scopes.filter(isScope),
      credential: {
        type: 'apiKey',
        keyId: key.keyId,
        projectId: key.projectId,
        projectName: key.projectName,
        planId: key.planId,
      },
    };
  }

  forgetKey(keyId: string): void {
    this.lookup.forgetKey(keyId);
  }

  flushLastUsed(): Promise<void> {
    return this.lookup.flushLastUsed();
  }

  close(): Promise<void> {
    return this.lookup.close();
  }
}
