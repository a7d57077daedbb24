import { hashApiKey, looksLikeApiKey } from '@framedeck/auth';
import { findActiveKeyByHash, touchKeysLastUsed, type ApiKeyPrincipal, type Queryable } from '@framedeck/postgres';
import { TtlCache } from './ttl-cache.js';

export type ApiKeyLookupOptions = {
  /** How long a found key is remembered: the bound on how long a deactivated key keeps working elsewhere. */
  ttlMs: number;
  /** How long "no such key" is remembered: short, so a key created a moment ago works at once. */
  negativeTtlMs: number;
  /** Last-use times are written at most this often, in one UPDATE for all keys used meanwhile. */
  lastUsedFlushMs: number;
  maxEntries?: number;
  onFlushError?: (error: unknown, keys: number) => void;
};

/**
 * Resolves raw X-API-Key values to their key, project, tenant and scopes — the one lookup the
 * API and the ingest gateway share. One indexed query by SHA-256 hash (the raw key is neither
 * cached nor logged), remembered briefly (hits and misses alike, so junk keys cannot hammer
 * Postgres; concurrent misses share one query), and last-use times recorded in batches so a
 * busy key costs no write per request. A database failure rejects (callers answer 503).
 */
export class ApiKeyLookup {
  private readonly cache: TtlCache<ApiKeyPrincipal | null>;
  private readonly usedSinceFlush = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Queryable,
    private readonly options: ApiKeyLookupOptions,
  ) {
    this.cache = new TtlCache({
      maxEntries: options.maxEntries ?? 10_000,
      ttlMs: (key) => (key ? options.ttlMs : options.negativeTtlMs),
    });
    this.timer = setInterval(() => void this.flushLastUsed(), options.lastUsedFlushMs).unref();
  }

  /** The active key with this value, or undefined (malformed, unknown or deactivated). */
  async find(rawKey: string): Promise<ApiKeyPrincipal | undefined> {
    if (!looksLikeApiKey(rawKey)) return undefined;
    const hash = hashApiKey(rawKey);
    const key = await this.cache.get(
      hash.toString('base64'),
      async () => (await findActiveKeyByHash(this.db, hash)) ?? null,
    );
    if (!key) return undefined;
    this.usedSinceFlush.add(key.keyId);
    return key;
  }

  /** Forgets a key at once, e.g. right after this process deactivated it. */
  forgetKey(keyId: string): void {
    this.cache.deleteWhere((key) => key?.keyId === keyId);
  }

  async flushLastUsed(): Promise<void> {
    if (this.usedSinceFlush.size === 0) return;
    const keyIds = [...this.usedSinceFlush];
    this.usedSinceFlush.clear();
    await touchKeysLastUsed(this.db, keyIds).catch((error: unknown) =>
      this.options.onFlushError?.(error, keyIds.length),
    );
  }

  /** Stops the flush timer and writes the pending last-use times. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushLastUsed();
  }
}
