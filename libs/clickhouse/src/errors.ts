/**
 * ClickHouse server errors, one shape for both generations:
 *   18.16:  "Code: 47, e.displayText() = DB::Exception: Unknown identifier: foo, e.what() = DB::Exception"
 *           (`@clickhouse/client` cannot parse this form: `code` stays undefined)
 *   modern: the client raises a ClickHouseError with `code` ("47") and `type` ("UNKNOWN_IDENTIFIER")
 *           and a message stripped of the "Code: 47. DB::Exception:" prefix; the full text form
 *           "Code: 47. DB::Exception: … (UNKNOWN_IDENTIFIER) (version 26.7.3.1)" still appears
 *           where an error is written into a result stream.
 * The client's `code`/`type` are read first, the text second.
 */
export type ClickHouseServerError = {
  code: number;
  /** The error's name (UNKNOWN_IDENTIFIER); absent on 18.16, which does not send it. */
  type?: string;
  message: string;
};

const TEXT_FORM = /Code:\s*(\d+)[.,]\s*(?:e\.displayText\(\)\s*=\s*)?(?:DB::Exception:\s*)?([\s\S]*)/;
const TYPE_SUFFIX = /\s*\(([A-Z][A-Z0-9_]{2,})\)\s*$/;

function cleanMessage(text: string): string {
  return text
    .replace(/,\s*e\.what\(\)\s*=\s*DB::Exception\s*$/, '')
    .replace(/\s*\(version [^)]*\)\s*$/, '')
    .trim();
}

function fromClientError(error: unknown): ClickHouseServerError | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, type } = error as { code?: unknown; type?: unknown };
  if (typeof code !== 'string' || !/^\d+$/.test(code)) return undefined;
  const message = cleanMessage(error.message).replace(/\.?\s*$/, '');
  return typeof type === 'string' ? { code: Number(code), type, message } : { code: Number(code), message };
}

function fromText(text: string): ClickHouseServerError | undefined {
  const match = TEXT_FORM.exec(text);
  if (!match) return undefined;
  let message = cleanMessage(match[2]!);
  const typeMatch = TYPE_SUFFIX.exec(message);
  if (typeMatch) {
    message = message.slice(0, typeMatch.index).replace(/\.\s*$/, '');
    return { code: Number(match[1]), type: typeMatch[1]!, message };
  }
  return { code: Number(match[1]), message };
}

export function parseClickHouseError(error: unknown): ClickHouseServerError | undefined {
  const fromClient = fromClientError(error);
  if (fromClient) return fromClient;
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : undefined;
  return text ? fromText(text) : undefined;
}

/** Errors that say the server or the network failed, not that the query was wrong. */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (
    typeof code === 'string' &&
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'UND_ERR_SOCKET'].includes(code)
  ) {
    return true;
  }
  // Node's http agent reports a keep-alive socket the server closed under us this way.
  return error instanceof Error && error.message === 'socket hang up';
}

// Server error codes that a later attempt can outlive: timeouts, network, memory and
// "too many parts/queries" pressure, a table or replica temporarily read-only.
const TRANSIENT_CODES = new Set([3, 159, 164, 202, 203, 209, 210, 241, 242, 252, 319, 425]);

/**
 * Whether repeating the same request may succeed. Anything that is not a server error with a
 * code (socket reset, EPIPE from a keep-alive socket the server closed, refused connection
 * while it restarts, HTTP 5xx without a body) counts as transient.
 */
export function isTransientError(error: unknown): boolean {
  if (isConnectionError(error)) return true;
  const parsed = parseClickHouseError(error);
  return parsed === undefined || TRANSIENT_CODES.has(parsed.code);
}
