import { ApiError, apiErrorFrom } from './api-error';

/** An array becomes a repeated parameter (?steps=a&steps=b). */
export type QueryValue = string | number | boolean | undefined | null | readonly string[];

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** A JSON body (object) or a FormData (multipart upload). */
  body?: unknown;
  /** Extra headers, e.g. X-Project-Id on paths that are not project-scoped. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

const API_BASE = '/api';
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The one way the dashboard talks to the web API: same origin, the session cookie (httpOnly,
 * never visible here) sent by the browser, and the CSRF token echoed in a header on every
 * state-changing request. Successful bodies are `{success, data}`: callers get `data`.
 */
class HttpClient {
  private csrfToken: string | undefined;
  private unauthorizedListener: (() => void) | undefined;

  setCsrfToken(token: string | undefined): void {
    this.csrfToken = token;
  }

  /** Called when any request answers 401: the session ended (expired, signed out elsewhere). */
  onUnauthorized(listener: (() => void) | undefined): void {
    this.unauthorizedListener = listener;
  }

  async request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const method = options.method ?? 'GET';
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) body = options.body;
    else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    if (!SAFE_METHODS.has(method) && this.csrfToken) headers['X-CSRF-Token'] = this.csrfToken;

    let response: Response;
    try {
      response = await fetch(API_BASE + path + queryString(options.query), {
        method,
        headers,
        body,
        credentials: 'same-origin',
        signal: options.signal,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(
        0,
        'The server could not be reached. Check your connection and try again.',
        undefined,
        undefined,
      );
    }
    const parsed = await readJson(response);
    if (!response.ok) {
      if (response.status === 401) this.unauthorizedListener?.();
      throw apiErrorFrom(response.status, response.headers, parsed);
    }
    return (isEnvelope(parsed) ? parsed.data : parsed) as T;
  }
}

export const http = new HttpClient();

export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) params.append(name, item);
    else if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isEnvelope(value: unknown): value is { success: boolean; data: unknown } {
  return typeof value === 'object' && value !== null && 'success' in value && 'data' in value;
}
