/**
 * RFC 9457 problem details for the web API, with the spec's extension members and, so that
 * clients written against either error shape of the spec work, `success: false` and `error`.
 * (The ingest service uses `{ "error": "..." }` only; see services/ingest-gateway.)
 */

export const ERROR_CATEGORIES = [
  'authentication',
  'authorization',
  'validation',
  'rate_limit',
  'not_found',
  'conflict',
  'payload',
  'internal',
] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

export type ProblemDocument = {
  type: string;
  title: string;
  status: number;
  detail: string;
  error_category: ErrorCategory;
  retryable: boolean;
  retry_after?: number;
  success: false;
  error: string;
};

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  411: 'Length Required',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const DEFAULT_CATEGORY: Record<number, ErrorCategory> = {
  400: 'validation',
  401: 'authentication',
  403: 'authorization',
  404: 'not_found',
  405: 'validation',
  409: 'conflict',
  411: 'payload',
  413: 'payload',
  415: 'payload',
  422: 'validation',
  429: 'rate_limit',
  500: 'internal',
  503: 'internal',
};

export type ProblemOptions = {
  category?: ErrorCategory;
  retryAfterSeconds?: number;
  type?: string;
  /** Defaults to true for 429 and 503 only; an infrastructure 500 that a retry may cure sets it. */
  retryable?: boolean;
};

/**
 * The one error type the API throws. The edge turns it into a problem document; anything
 * else that escapes becomes a generic 500 with no internal detail.
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly options: ProblemOptions = {},
  ) {
    super(detail);
    this.name = 'ApiProblem';
  }

  toDocument(): ProblemDocument {
    return problemDocument(this.status, this.detail, this.options);
  }
}

export function problemDocument(status: number, detail: string, options: ProblemOptions = {}): ProblemDocument {
  const doc: ProblemDocument = {
    type: options.type ?? 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    error_category: options.category ?? DEFAULT_CATEGORY[status] ?? (status >= 500 ? 'internal' : 'validation'),
    retryable: options.retryable ?? (status === 429 || status === 503),
    success: false,
    error: detail,
  };
  if (options.retryAfterSeconds !== undefined) doc.retry_after = options.retryAfterSeconds;
  return doc;
}

/** Shorthands for the common cases, so call sites read as what happened. */
export const problems = {
  badRequest: (detail: string) => new ApiProblem(400, detail),
  unauthorized: (detail = 'Missing or invalid credentials.') => new ApiProblem(401, detail),
  forbidden: (detail: string) => new ApiProblem(403, detail),
  notFound: (detail = 'Not found.') => new ApiProblem(404, detail),
  conflict: (detail: string) => new ApiProblem(409, detail),
  tooLarge: (detail: string) => new ApiProblem(413, detail),
  unsupportedMediaType: (detail: string) => new ApiProblem(415, detail),
  tooManyRequests: (detail: string, retryAfterSeconds: number) => new ApiProblem(429, detail, { retryAfterSeconds }),
  unavailable: (detail: string, retryAfterSeconds = 5) => new ApiProblem(503, detail, { retryAfterSeconds }),
  internal: () => new ApiProblem(500, 'An internal error occurred. It has been logged.'),
};
