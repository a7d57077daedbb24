import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, type RateLimitRequestHandler } from 'express-rate-limit';
import type { Logger } from '@framedeck/logging';
import { getPlanOfTenant, type Pool } from '@framedeck/postgres';
import { problems } from '@framedeck/problem';
import { retryAfterSeconds, SlidingWindowStore, type Clock, type SlidingWindowCounter } from '@framedeck/rate-limit';

export type RateLimitBucket = 'plan' | 'whoami';

export type RateLimitOptions = {
  counter: SlidingWindowCounter;
  pool: Pool;
  logger: Logger;
  windowMs: number;
  whoamiPerWindow: number;
  anonymousPerWindow: number;
  now: Clock;
};

const PLAN_CACHE_MS = 60_000;

/**
 * Per-tenant sliding-window quotas through express-rate-limit (with our exact Redis store):
 * - 'plan': plans.api_requests_per_hour, shared by all projects and keys of the tenant;
 * - 'whoami': its own per-tenant quota (spec: 60/hour), not counted in the plan quota;
 * - requests with no valid credential: per client IP ('anonymous'), so a 401 carries real
 *   headers too and credential guessing is slowed down.
 * Every answer gets X-RateLimit-Limit/Remaining/Reset (Reset in Unix ms); a 429 is a
 * problem+json with Retry-After = seconds until enough old requests have left the window.
 */
export class TenantRateLimiter {
  private readonly limiters = new Map<string, RateLimitRequestHandler>();
  private readonly planLimits = new Map<string, { limit: number; expiresAt: number }>();

  private readonly windowText: string;

  constructor(private readonly options: RateLimitOptions) {
    this.windowText = options.windowMs === 3_600_000 ? 'hour' : `${options.windowMs / 1000} s (sliding)`;
  }

  middleware(bucket: RateLimitBucket): RequestHandler {
    return async (req, res, next) => {
      try {
        const limit = await this.limitFor(req, bucket);
        const limiter = this.limiterFor(limit);
        await limiter(req, res, (error?: unknown) => {
          setRateLimitHeaders(req, res);
          next(error);
        });
      } catch (error) {
        next(error);
      }
    };
  }

  /** Picks the request's bucket (stored on `req.rateLimitKey` for the key generator) and its limit. */
  private async limitFor(req: Request, bucket: RateLimitBucket): Promise<number> {
    const tenantId = req.principal?.tenantId;
    req.rateLimitKey = tenantId ? `${bucket}:${tenantId}` : `anonymous:${req.ip ?? 'unknown'}`;
    if (!tenantId) return this.options.anonymousPerWindow;
    if (bucket === 'whoami') return this.options.whoamiPerWindow;
    return this.planLimitOf(tenantId);
  }

  private async planLimitOf(tenantId: string): Promise<number> {
    const cached = this.planLimits.get(tenantId);
    if (cached && cached.expiresAt > Date.now()) return cached.limit;
    const plan = await getPlanOfTenant(this.options.pool, tenantId);
    if (!plan) throw new Error(`tenant ${tenantId} has no plan`);
    this.planLimits.set(tenantId, { limit: plan.apiRequestsPerHour, expiresAt: Date.now() + PLAN_CACHE_MS });
    return plan.apiRequestsPerHour;
  }

  /**
   * One express-rate-limit instance per distinct limit (a handful: one per plan), each with a
   * store that knows its limit; all of them count in the same Redis keys.
   */
  private limiterFor(limit: number): RateLimitRequestHandler {
    let limiter = this.limiters.get(String(limit));
    if (!limiter) {
      limiter = rateLimit({
        windowMs: this.options.windowMs,
        limit,
        store: new SlidingWindowStore(this.options.counter, limit),
        keyGenerator: (req) => req.rateLimitKey!,
        // Our own headers (Reset in ms, which neither header standard uses) and problem body.
        standardHeaders: false,
        legacyHeaders: false,
        handler: (req, _res, next) => {
          const resetAtMs = req.rateLimit!.resetTime!.getTime();
          const retryAfter = retryAfterSeconds({ allowed: false, count: 0, resetAtMs }, this.options.now());
          next(problems.tooManyRequests(`Rate limit exceeded: ${limit} requests per ${this.windowText}.`, retryAfter));
        },
        // NOTE: created lazily inside a request (limits are data); the check guards against
        // per-request instances with a process-local store, which ours is not.
        validate: { creationStack: false },
      });
      this.limiters.set(String(limit), limiter);
    }
    return limiter;
  }
}

function setRateLimitHeaders(req: Request, res: Response): void {
  const info = req.rateLimit;
  if (!info || res.headersSent) return;
  res.setHeader('X-RateLimit-Limit', String(info.limit));
  res.setHeader('X-RateLimit-Remaining', String(info.remaining));
  res.setHeader('X-RateLimit-Reset', String(info.resetTime?.getTime() ?? Date.now()));
}
