/**
 * An error answer of the web API, read from its RFC 9457 problem document (or the
 * `{success:false,error}` shape), or a network failure (status 0).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly category: string | undefined,
    /** Seconds to wait before retrying, from Retry-After or the problem's retry_after. */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isRateLimited(): boolean {
    return this.status === 429;
  }
}

type ProblemLike = {
  detail?: unknown;
  error?: unknown;
  title?: unknown;
  error_category?: unknown;
  retry_after?: unknown;
};

/** Builds an ApiError from a response's status, headers and parsed body (any shape). */
export function apiErrorFrom(status: number, headers: Headers, body: unknown): ApiError {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as ProblemLike;
  const message =
    firstString(problem.detail, problem.error, problem.title) ?? `The server answered ${status} with no explanation.`;
  return new ApiError(
    status,
    message,
    typeof problem.error_category === 'string' ? problem.error_category : undefined,
    retryAfterFrom(headers.get('retry-after'), problem.retry_after),
  );
}

/** Retry-After in seconds (an integer or an HTTP date), falling back to the body's retry_after. */
export function retryAfterFrom(header: string | null, bodyValue: unknown, now = Date.now()): number | undefined {
  if (header !== null && header.trim() !== '') {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - now) / 1000));
  }
  return typeof bodyValue === 'number' && Number.isFinite(bodyValue) && bodyValue >= 0
    ? Math.ceil(bodyValue)
    : undefined;
}

/** "42 s", "3 min 5 s", "1 h 2 min": how long to wait, for people. */
export function formatWait(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return rest > 0 ? `${m} min ${rest} s` : `${m} min`;
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((v): v is string => typeof v === 'string' && v.trim() !== '');
}
