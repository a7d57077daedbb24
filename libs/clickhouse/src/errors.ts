/**
 * Normalises ClickHouse server errors across versions:
 *   18.16:  "Code: 47, e.displayText() = DB::Exception: Unknown identifier: foo, e.what() = DB::Exception"
 *   modern: "Code: 47. DB::Exception: Missing columns: 'foo' ... (UNKNOWN_IDENTIFIER) (version 23.8.1)"
 * `@clickhouse/client` leaves `code` undefined on 18.16, so the code is parsed from the text.
 */
export type ClickHouseServerError = { code: number; message: string };

const PATTERN = /Code:\s*(\d+)[.,]\s*(?:e\.displayText\(\)\s*=\s*)?(?:DB::Exception:\s*)?([\s\S]*)/;

export function parseClickHouseError(error: unknown): ClickHouseServerError | undefined {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : undefined;
  if (!text) return undefined;
  const match = PATTERN.exec(text);
  if (!match) return undefined;
  const message = match[2]!
    .replace(/,\s*e\.what\(\)\s*=\s*DB::Exception\s*$/, '')
    .replace(/\s*\(version [^)]*\)\s*$/, '')
    .trim();
  return { code: Number(match[1]), message };
}

/** Errors that say the server or the network failed, not that the query was wrong. */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return (
    typeof code === 'string' &&
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'UND_ERR_SOCKET'].includes(code)
  );
}
