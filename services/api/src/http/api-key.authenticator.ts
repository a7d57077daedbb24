import { hashApiKey, isScope, looksLikeApiKey } from '@framedeck/auth';
import type { Logger } from '@framedeck/logging';
import { findActiveKeyByHash, touchKeysLastUsed, type ApiKeyPrincipal, type Pool } from '@framedeck/postgres';
import type { Principal } from './principal.js';

/**
 * Resolves X-API-Key values to principals: one indexed lookup by SHA-256 hash, remembered for
 * `cacheMs` (hits and misses alike, so junk keys cannot hammer Postgres), and last-use times
 * written in batches (at most one UPDATE per `flushMs` for all keys used meanwhile).
 *
 * NOTE: a key deactivated through this instance is forgotten at once; other API instances may
 * accept it for up to `cacheMs` more.
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, { expiresAt: number; key: ApiKeyPrincipal | undefined }>();
  private readonly usedSinceFlush = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly deps: { pool: Pool; logger: Logger },
    private readonly options: { cacheMs: number; flushMs: number; maxCachedKeys?: number },
  ) {
    this.timer = setInterval(() => void this.flushLastUsed(), options.flushMs).unref();
  }

  async authenticate(rawKey: string): Promise<Principal | undefined> {
    if (!looksLikeApiKey(rawKey)) return undefined;
    const hash = hashApiKey(rawKey);
    const cacheKey = hash.toString('base64');
    const now = Date.now();
    let entry = this.cache.get(cacheKey);
    if (!entry || entry.expiresAt <= now) {
      entry = { expiresAt: now + this.options.cacheMs, key: await findActiveKeyByHash(this.deps.pool, hash) };
      this.remember(cacheKey, entry);
    }
    const key = entry.key;
    if (!key) return undefined;
    this.usedSinceFlush.add(key.keyId);
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

  /** Drops cached lookups of a key, e.g. right after it was deactivated. */
  forgetKey(keyId: string): void {
    for (const [cacheKey, entry] of this.cache) if (entry.key?.keyId === keyId) this.cache.delete(cacheKey);
  }

  async flushLastUsed(): Promise<void> {
    if (this.usedSinceFlush.size === 0) return;
    const keyIds = [...this.usedSinceFlush];
    this.usedSinceFlush.clear();
    await touchKeysLastUsed(this.deps.pool, keyIds).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, keys: keyIds.length }, 'could not record API key last use');
    });
  }

  /** Stops the flush timer and writes the pending last-use times. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushLastUsed();
  }

  private remember(cacheKey: string, entry: { expiresAt: number; key: ApiKeyPrincipal | undefined }): void {
    this.cache.delete(cacheKey);
    this.cache.set(cacheKey, entry);
    if (this.cache.size > (this.options.maxCachedKeys ?? 10_000)) this.cache.delete(this.cache.keys().next().value!);
  }
}
