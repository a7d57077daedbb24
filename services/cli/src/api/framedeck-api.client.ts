/**
 * The few web API calls the CLI's CI commands make (perf-diff, run-profile-test): GET with an
 * X-API-Key, the envelope's `data` back, any failure as an ApiRequestError carrying what the
 * API said (its problem+json detail), never the key.
 */

/** The API could not be reached, or answered with an error: the commands exit 2 on it. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    /** HTTP status; undefined when no answer came. */
    readonly status: number | undefined,
    /** Retry-After in ms on a 429/503, when the API sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export type ApiClientOptions = {
  /** {base_url}, e.g. http://127.0.0.1:8080/api */
  baseUrl: string;
  apiKey: string;
  requestTimeoutMs?: number;
};

export type QueryValues = Record<string, string | number | undefined>;

export class FrameDeckApiClient {
  constructor(private readonly options: ApiClientOptions) {}

  /** GET `path` (below {base_url}) with the query's defined values; resolves with `data`. */
  async get<T>(path: string, query: QueryValues = {}): Promise<T> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
    const url = `${this.options.baseUrl}${path}${params.size > 0 ? `?${params.toString()}` : ''}`;
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { 'x-api-key': this.options.apiKey, accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.requestTimeoutMs ?? 60_000),
      });
    } catch (error) {
      const cause = (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new ApiRequestError(`cannot reach the API at ${this.options.baseUrl} (${cause})`, undefined);
    }
    const text = await response.text();
    let body: { data?: unknown; title?: string; detail?: string } | undefined;
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const said = body?.detail ?? body?.title ?? text.slice(0, 200);
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new ApiRequestError(
        `GET ${path} answered ${response.status}: ${said}`,
        response.status,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
      );
    }
    if (body === undefined || !('data' in body)) {
      throw new ApiRequestError(`GET ${path} answered ${response.status} without a JSON envelope`, response.status);
    }
    return body.data as T;
  }

  /** The project to work on: the one given, else the key's own (GET /v1/whoami; 60 per hour per tenant). */
  async projectId(given: string | undefined): Promise<string> {
    if (given) return given;
    const whoami = await this.get<{ projectId: string }>('/v1/whoami');
    return whoami.projectId;
  }

  /** The scopes of this client's key (GET /v1/whoami answers any valid key, ingest keys included). */
  async scopes(): Promise<string[]> {
    return (await this.get<{ scopes: string[] }>('/v1/whoami')).scopes;
  }
}
